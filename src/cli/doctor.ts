import type { Command } from 'commander';
import { UserError, UserErrors } from '../core/errors.js';
import { timeoutMs } from './parse-number.js';
import { loadConfigFromFlags, planCases } from './prepare.js';
import { doctorReport, type DoctorReport } from './doctor-report.js';
import { doctorText } from './doctor-text.js';
import type { ResolvedConfig } from '../config/load-config.js';
import { configModels } from '../config/config-models.js';
import { discoverEvalFiles } from '../suite/discover.js';
import type { PlannedCase } from '../suite/plan.js';
import { checkRunJudgeRefs } from '../judges/judge-refs.js';
import { runRedactor } from '../providers/run-redactor.js';
import { dayOf } from '../providers/model-retirement.js';
import { DEFAULT_LOAD_TIMEOUT_MS } from '../suite/import-module.js';
import { CONFIG_FILES_HELP } from '../config/defaults.js';

interface DoctorFlags {
  config?: string;
  loadTimeout?: number;
  live?: boolean;
  json?: boolean;
}

export function registerDoctor(program: Command): void {
  program
    .command('doctor')
    .description('list every model a run of the config would call, with its endpoint, key, capabilities and price (exit 0); --live checks each with one short request (exit 1 on a failure)')
    .option('-c, --config <path>', `config file (default: ${CONFIG_FILES_HELP})`)
    .option('--live', 'one short request per model (and one small judgment per judge model): a few hundred tokens per model at most')
    .option('--json', 'print the report as JSON')
    .option('--load-timeout <ms>', `how long importing the config or an eval .ts file may take, in ms (default ${DEFAULT_LOAD_TIMEOUT_MS})`, timeoutMs)
    .action(async (flags: DoctorFlags) => {
      const cwd = process.cwd();
      const env = process.env;
      const config = await loadConfigFromFlags(flags, cwd);
      const found = configModels(config, await evalCases(config, cwd));
      const report = doctorReport(config, found, env, dayOf(new Date()));
      // Offline, what the table says the API refuses is the run's own plan-time error (exit 2); --live sends it and shows the API's answer.
      if (!flags.live) refuseAsTheRunDoes(report, config.file);
      if (flags.live) await checkLive(report, found.models, config, env);
      // Key values never appear; this is the guard for anything a provider's message could echo.
      // An agent judge's own options.env holds secrets of its own: redacted too.
      const redactors = [env, ...new Set(found.models.flatMap((m) => (m.env ? [m.env] : [])))].map((e) =>
        runRedactor({ targets: config.targets, env: e, judging: { judge: config.judge, judges: config.judges }, proxy: config.proxy, mcpServers: config.mcpServers }),
      );
      const out = flags.json ? JSON.stringify(report, null, 2) + '\n' : doctorText(report, Boolean(flags.live));
      process.stdout.write(redactors.reduce((text, r) => r.redact(text), out));
      // Offline, a missing key is a warning: the config is sound, and a run on this machine would stop before its first call.
      if (!flags.live && !flags.json && report.missingKeys.length > 0) {
        process.stderr.write(
          `warning: ${report.missingKeys.join(', ')} not set: a run that calls ${report.missingKeys.length === 1 ? 'its models' : 'their models'} stops before its first call (exit 2)\n`,
        );
      }
      // A model the run refuses before its first call fails the check even when the API took the request.
      process.exitCode = flags.live && report.models.some((m) => (m.live ?? []).length > 0 || m.refused !== undefined) ? 1 : 0;
    });
}

/** The run's plan-time refusals (runner/wire-refusals.ts), one error per model, naming who calls it. */
function refuseAsTheRunDoes(report: DoctorReport, file: string | null): void {
  const errors = report.models.flatMap((m) => (m.refused !== undefined ? [new UserError(`${m.usedBy.join('; ')}: ${m.refused}`, file ? { file } : {})] : []));
  if (errors.length > 0) throw errors.length === 1 ? errors[0]! : new UserErrors(errors);
}

/** The cases of the config's eval files, for the judges and matrix variants they name; none when no file matches. */
async function evalCases(config: ResolvedConfig, cwd: string): Promise<PlannedCase[]> {
  const files = await discoverEvalFiles({ rootDir: config.rootDir, cwd, globs: [...config.evals], paths: [] });
  if (files.length === 0) return [];
  // Drafts too: the models and judges they name are the suite's once they are accepted.
  const { cases } = await planCases(config, [], { includeDrafts: true }, cwd);
  // The config's embeddingModel too: a similarTo without its own model embeds with it.
  checkRunJudgeRefs({ judges: config.judges, ...(config.embeddingModel !== undefined ? { embeddingModel: config.embeddingModel } : {}) }, cases);
  return cases;
}

/** Every model checked at once (each is one or two small requests); results land on the report's models. */
async function checkLive(report: DoctorReport, uses: ReturnType<typeof configModels>['models'], config: ResolvedConfig, env: NodeJS.ProcessEnv): Promise<void> {
  const [{ probeModel }, { ProviderLimiters }] = await Promise.all([import('../runner/doctor/model-probe.js'), import('../providers/adaptive-limit.js')]);
  const limiters = new ProviderLimiters(Number.POSITIVE_INFINITY, { proxy: config.proxy });
  const options = { env, limiters, rootDir: config.rootDir, judges: config.judges, pricing: config.pricing };
  // An agent judge's model is asked with the key its calls read: its own options.env when it gives one.
  const results = await Promise.all(uses.map((use) => probeModel(use, { ...options, env: use.env ?? env })));
  results.forEach((failures, i) => (report.models[i]!.live = failures));
}
