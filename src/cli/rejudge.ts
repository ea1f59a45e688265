import { basename, dirname, join, relative, resolve } from 'node:path';
import type { Command } from 'commander';
import { UserError } from '../core/errors.js';
import { caseKey, MATRIX_DIMENSIONS } from '../core/matrix.js';
import { ResultsSchema, type Results } from '../core/results-schema.js';
import { providerList } from '../providers/registry.js';
import type { RunFlags } from '../config/run-settings.js';
import type { ResolvedConfig } from '../config/load-config.js';
import type { PlannedCase } from '../suite/plan.js';
import { collect, concurrency, fraction, timeoutMs, usd, waitMs } from './parse-number.js';
import { loadConfigFromFlags, planCases } from './prepare.js';
import { readResultsFile, refuseDryRun } from '../suite/results-file.js';
import { reporterHooks } from '../report/hook-bound.js';
import { buildReporters, reporterOption, reporterOutputs } from './reporters.js';
import { checkOutputs } from './output-check.js';
import { packageVersion } from './version.js';
import { withInterrupt } from './interrupt.js';
import { judgeCacheOutput, runBase } from './run-base.js';
import { DEFAULT_COLLECT_WAIT_MS, type CollectRequest } from '../judges/batch-collect.js';
import { DEFAULT_LOAD_TIMEOUT_MS } from '../suite/import-module.js';
import { CONFIG_FILES_HELP } from '../config/defaults.js';
import { pushAll } from '../core/push-all.js';

interface RejudgeFlags extends Pick<RunFlags, 'concurrency' | 'strict' | 'failOnFlaky' | 'maxCost' | 'minScore' | 'minPassRate' | 'judge' | 'cache' | 'judgeBatch' | 'reporter' | 'silent'> {
  config?: string;
  loadTimeout?: number;
  json?: string;
  verbose?: boolean;
  batch?: string;
  batchWait?: number;
}

export function registerRejudge(program: Command): void {
  program
    .command('rejudge')
    .description('re-grade a recorded run with the judges of the current config (or --judge) without calling any target; writes a new results document (exit 0 pass, 1 fail, 2 bad input)')
    .argument('<results>', 'the results file of the run to re-judge')
    .option('-c, --config <path>', `config file (default: ${CONFIG_FILES_HELP})`)
    .option('--load-timeout <ms>', `how long importing the config or an eval .ts file may take, in ms (default ${DEFAULT_LOAD_TIMEOUT_MS})`, timeoutMs)
    .option('--judge <provider:model>', `one judge model for every judged assertion (provider: ${providerList()})`)
    .option('--json <path>', 'where the re-judged results document goes (default: <results>.rejudged.json beside the input; never the input itself)')
    .addOption(reporterOption(undefined, "; the config's `reporters` are for runs").argParser(collect))
    .option('--silent', 'no terminal reporter (file reporters still write)')
    .option('-v, --verbose', 'show every assertion, judge evidence and usage per case')
    .option('-j, --concurrency <n>', 'trials judged at once', concurrency)
    .option('--no-cache', 'make every judge call anew: no sharing between repeats, no cache on disk')
    .option('--judge-batch', `send the judges' calls through the providers' batch APIs (${providerList((p) => p.batch)}), at the batch price`)
    .option('--no-judge-batch', 'judge live, whatever `judgeBatch` in the config says')
    .option('--batch <id>', 'collect a judge batch the run left uncollected (summary.uncollectedBatches): its answers judge the calls they were made for, none is asked again (implies --judge-batch)')
    .option('--batch-wait <ms>', `with --batch: how long to wait while the batch is still in progress at the provider, in ms, 0 to not wait (default ${DEFAULT_COLLECT_WAIT_MS})`, waitMs)
    .option('--max-cost <usd>', "stop starting trials once the judges spent this many dollars (the recorded targets' spend is not counted again)", usd)
    .option('--strict', 'a case that ended `scored` (a soft assertion missed) fails')
    .option('--no-strict', 'scored cases do not fail, whatever `strict` in the config says')
    .option('--fail-on-flaky', 'a flaky case (both passing and failing trials) fails')
    .option('--no-fail-on-flaky', 'flaky cases do not fail, whatever `failOnFlaky` in the config says')
    .option('--min-score <x>', 'fail when the mean trial score is below x', fraction)
    .option('--min-pass-rate <x>', 'fail when the fraction of passed trials is below x', fraction)
    .action(async (resultsArg: string, flags: RejudgeFlags, cmd: Command) => {
      process.exitCode = await rejudgeCommand(resultsArg, flags, cmd, process.cwd());
    });
}

async function rejudgeCommand(resultsArg: string, flags: RejudgeFlags, cmd: Command, cwd: string): Promise<number> {
  // The recording first: a missing or invalid file is exit 2 before the config loads.
  const input = resolve(cwd, resultsArg);
  const recorded = await readResultsFile(input, cwd, '<results>', ResultsSchema);
  const file = relative(cwd, input) || input;
  // Its replies are placeholders: a paid judge would grade what no agent said.
  refuseDryRun(recorded.run, { file, field: '<results>' }, ': there is no reply of the agent to re-judge');
  refuseRepeatedCases(recorded, file);
  const collect = flags.batch !== undefined ? collectRequest(recorded, file, flags.batch, flags.batchWait) : undefined;
  if (flags.batchWait !== undefined && !collect) throw new UserError('--batch-wait is for --batch <id>', { field: '--batch-wait' });
  const out = resolve(cwd, flags.json ?? join(dirname(input), `${basename(input, '.json')}.rejudged.json`));

  const config = await loadConfigFromFlags(flags, cwd);
  const cases = await plannedFor(recorded, config, cwd);
  const [{ resolveRunSettings, reporterSpecs }, { openRun }] = await Promise.all([import('../config/run-settings.js'), import('../runner/start-run.js')]);
  // A collected batch's answers come through the batch path, priced at the batch rate like the run's.
  const settings = resolveRunSettings(config, collect ? { ...flags, judgeBatch: true } : flags, process.env);
  // No target runs, so only the judges need their keys.
  const run = openRun(settings, cases, 'rejudge');

  const version = packageVersion();
  const specs = reporterSpecs({ reporters: ['terminal'] }, { ...flags, json: out });
  const hooks = reporterHooks(config.reporterTimeoutMs, settings.interruptGraceMs);
  const reporterContext = { cwd, outputDir: config.outputDir, keepRuns: config.keepRuns, version, verbose: Boolean(flags.verbose), hookBound: hooks.bound };
  const outputs = reporterOutputs(specs, reporterContext);
  // A re-judge never replaces the run it re-judged.
  const over = outputs.find((o) => o.kind === 'file' && resolve(o.path) === input);
  if (over) throw new UserError(`would overwrite the recorded run ${file}: give the re-judged results another path`, { field: over.field === 'json reporter' ? '--json' : over.field });
  pushAll(outputs, await judgeCacheOutput(cases, settings, config.outputDir));
  await checkOutputs(outputs, config.file);
  const reporters = await buildReporters(specs, reporterContext);

  const base = await runBase(settings, cmd, version, { specs, outputDir: config.outputDir });
  process.stderr.write(`agent-evals: re-judging run ${recorded.run.id} (started ${recorded.run.startedAt}) from ${file}: no target is called; writing ${relative(cwd, out) || out}\n`);
  return withInterrupt(async (interrupt) => {
    const { exitCode } = await run.rejudge({ ...base, recorded, file, reporters, interrupt, ...(collect ? { collect } : {}) });
    return exitCode;
  }, hooks);
}

/** `--batch <id>`: the recorded uncollected batch of that id, with its requests (what the re-judge's calls are matched on). */
function collectRequest(recorded: Results, file: string, id: string, waitMs: number | undefined): CollectRequest {
  const listed = recorded.summary.uncollectedBatches ?? [];
  const batch = listed.find((b) => b.id === id);
  if (!batch) {
    const known = listed.length ? `: it lists ${listed.map((b) => b.id).join(', ')}` : ': it lists none';
    throw new UserError(`${file} holds no uncollected judge batch ${id} (summary.uncollectedBatches${known})`, { field: '--batch' });
  }
  if (!batch.requests?.length)
    throw new UserError(`${file} does not record the requests of judge batch ${id} (written by an older agent-evals): its answers cannot be matched to their judgments`, { field: '--batch' });
  // The runner applies its default wait: the CLI does not load the collect code to start.
  return { batch, ...(waitMs !== undefined ? { waitMs } : {}) };
}

/**
 * The current config's cases, planned as `run` plans them. A recording made with `--matrix` holds
 * cases the config alone does not plan: its matrix values are planned too (once per set of
 * dimensions its cases ran with), so its keys can match.
 */
export async function plannedFor(recorded: Results, config: ResolvedConfig, cwd: string): Promise<PlannedCase[]> {
  // Drafts too: a recording made with --include-drafts holds them, and re-grading it calls no target.
  const { cases } = await planCases(config, [], { includeDrafts: true }, cwd);
  const keys = new Set(cases.map((c) => c.key));
  const out = [...cases];
  for (const matrix of recordedMatrices(recorded.cases.filter((c) => !keys.has(caseKey(c))))) {
    try {
      const planned = (await planCases(config, [], { matrix, includeDrafts: true }, cwd)).cases.filter((c) => !keys.has(c.key));
      for (const c of planned) keys.add(c.key);
      pushAll(out, planned);
    } catch (err) {
      // A value the config no longer has: those cases are listed as not in the config.
      if (!(err instanceof UserError)) throw err;
    }
  }
  return out;
}

/** The `--matrix` flags of recorded cases, one list per set of dimensions (`target=a,b`; `model=x,y` and `effort=low,high`). */
function recordedMatrices(cases: ReadonlyArray<Pick<Results['cases'][number], 'matrix'>>): string[][] {
  const bySet = new Map<string, Map<string, string[]>>();
  for (const { matrix } of cases) {
    const dims = MATRIX_DIMENSIONS.filter((d) => matrix?.[d] !== undefined);
    if (!dims.length) continue;
    const axes = bySet.get(dims.join()) ?? new Map(dims.map((d) => [d, [] as string[]]));
    bySet.set(dims.join(), axes);
    for (const d of dims) if (!axes.get(d)!.includes(matrix![d]!)) axes.get(d)!.push(matrix![d]!);
  }
  return [...bySet.values()].map((axes) => [...axes].map(([d, values]) => `${d}=${values.join(',')}`));
}

/**
 * A run writes each case once: a file that holds one case key twice (cases pasted in again, shards
 * joined by hand) would be judged twice over and counted twice in the summary. Refused, naming the
 * second place, rather than quietly keeping one of them.
 */
function refuseRepeatedCases(recorded: Results, file: string): void {
  const first = new Map<string, number>();
  recorded.cases.forEach((c, i) => {
    const key = caseKey(c);
    const at = first.get(key);
    if (at !== undefined)
      throw new UserError(`case ${key} is in the file twice (cases[${at}] and cases[${i}]): a results file holds each case once (join shards with \`agent-evals merge\`)`, {
        file,
        field: `cases[${i}]`,
      });
    first.set(key, i);
  });
}
