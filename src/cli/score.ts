import { join, relative, resolve } from 'node:path';
import type { Command } from 'commander';
import { UserError } from '../core/errors.js';
import type { ScoredFrom } from '../core/results-schema.js';
import type { RecordedTrace } from '../core/recorded-trace.js';
import { providerList } from '../providers/registry.js';
import type { RunFlags } from '../config/run-settings.js';
import type { ResolvedConfig } from '../config/load-config.js';
import { planDefaults } from '../config/plan-defaults.js';
import { collect, concurrency, count, countOrZero, fraction, judgeNoise, timeoutMs, usd } from './parse-number.js';
import { loadConfigFromFlags } from './prepare.js';
import { reporterHooks } from '../report/hook-bound.js';
import { terminalSafe } from '../report/sanitize.js';
import { buildReporters, reporterOption, reporterOutputs } from './reporters.js';
import { checkOutputs } from './output-check.js';
import { packageVersion } from './version.js';
import { withInterrupt } from './interrupt.js';
import { judgeCacheOutput, runBase } from './run-base.js';
import { DEFAULT_LOAD_TIMEOUT_MS } from '../suite/import-module.js';
import { CONFIG_FILES_HELP } from '../config/defaults.js';
import { pushAll } from '../core/push-all.js';
import { readTraces } from '../suite/read-traces.js';
import { planScored, type ScorePlan } from '../suite/score-plan.js';
import type { Scoring } from '../suite/load-score-file.js';
import { checkSaveFailures, saveFailures } from './score-failures.js';
import { checkWrittenTarget } from './written-eval-file.js';
import { loadScorings } from './score-scorings.js';

export interface ScoreFlags extends Pick<RunFlags, 'concurrency' | 'strict' | 'maxCost' | 'minScore' | 'minPassRate' | 'judge' | 'cache' | 'judgeBatch' | 'judgeNoise' | 'reporter' | 'silent'> {
  config?: string;
  loadTimeout?: number;
  scoring?: string[];
  suite?: string;
  sample?: number;
  seed?: number;
  since?: string;
  until?: string;
  json?: string | true;
  verbose?: boolean;
  saveFailures?: string;
  target: string;
}

/** Where a score's results document goes when `--json` names no path: beside `results.json`, never it (the last run of the agent). */
export const SCORED_FILE = 'scored.json';

export function registerScore(program: Command): void {
  program
    .command('score')
    .description(
      "grade recorded agent runs (OTLP JSON exports, JSONL traces, results files) with a scoring file's or a suite's gates and judges, without calling any target; writes a results document (exit 0 all passed, 1 a trace failed, 2 bad input)",
    )
    .argument('<traces...>', 'trace files or folders: OTLP JSON exports, JSONL ({input | messages, reply, toolCalls?, usage?, metadata?} per line), agent-evals results files')
    .option('-c, --config <path>', `config file (default: ${CONFIG_FILES_HELP})`)
    .option('--load-timeout <ms>', `how long importing the config or an eval .ts file may take, in ms (default ${DEFAULT_LOAD_TIMEOUT_MS})`, timeoutMs)
    .option('--scoring <file>', "a scoring file (*.score.yaml) or a folder of them (repeatable; default: every *.score.yaml under the folders of the config's eval globs)", collect)
    .option('--suite <name>', "score with an eval suite's suite-level assertions (its `assert`, `onlyTools`, `judge`) instead of scoring files")
    .option('--sample <n>', 'score n traces, chosen by --seed (the same n for the same seed and files)', count)
    .option('--seed <s>', 'the seed of --sample (default 0)', countOrZero)
    .option('--since <time>', 'only traces that started at or after this time (ISO 8601, e.g. 2026-12-01 or 2026-12-01T09:00:00Z)')
    .option('--until <time>', 'only traces that started before this time (ISO 8601)')
    .option('--judge <provider:model>', `one judge model for every judged assertion (provider: ${providerList()})`)
    .option('--json [path]', `where the results document goes (default <outputDir>/${SCORED_FILE}; the run folder keeps a copy)`)
    .addOption(reporterOption(undefined, "; the config's `reporters` are for runs").argParser(collect))
    .option('--silent', 'no terminal reporter (file reporters still write)')
    .option('-v, --verbose', 'show every assertion, judge evidence and usage per case')
    .option('-j, --concurrency <n>', 'traces judged at once', concurrency)
    .option('--no-cache', 'make every judge call anew: no cache on disk')
    .option('--judge-batch', `send the judges' calls through the providers' batch APIs (${providerList((p) => p.batch)}), at the batch price`)
    .option('--no-judge-batch', 'judge live, whatever `judgeBatch` in the config says')
    .option('--judge-noise <k>', 'ask each judged assertion k more times (cache off) on every scored trace (each is a one-trial case), and report its flip rate and score spread', judgeNoise)
    .option('--max-cost <usd>', 'stop starting traces once the judges spent this many dollars', usd)
    .option('--strict', 'a trace that ended `scored` (a soft assertion missed) fails')
    .option('--no-strict', 'scored traces do not fail, whatever `strict` in the config says')
    .option('--min-score <x>', 'fail when the mean trace score is below x', fraction)
    .option('--min-pass-rate <x>', 'fail when the fraction of passed traces is below x', fraction)
    .option('--save-failures <file>', 'write each failed trace as an eval case (its input, the assertions it failed) to this new *.eval.yaml; an existing file is not replaced')
    .option('--target <name>', 'the target named in evals.config that the saved cases run against', 'agent')
    .action(async (paths: string[], flags: ScoreFlags, cmd: Command) => {
      process.exitCode = await scoreCommand(paths, flags, cmd, process.cwd());
    });
}

/** A `--since`/`--until` time: bad input naming the flag when it is no date. */
function timeFlag(value: string | undefined, field: string): Date | undefined {
  if (value === undefined) return undefined;
  const t = Date.parse(value);
  if (Number.isNaN(t)) throw new UserError(`${JSON.stringify(value)} is not a time (expected ISO 8601, e.g. 2026-12-01 or 2026-12-01T09:00:00Z)`, { field });
  return new Date(t);
}

async function scoreCommand(paths: string[], flags: ScoreFlags, cmd: Command, cwd: string): Promise<number> {
  if (flags.seed !== undefined && flags.sample === undefined) throw new UserError('--seed chooses the traces of --sample: give --sample n too', { field: '--seed' });
  if (flags.suite !== undefined && flags.scoring?.length) throw new UserError('--suite and --scoring both choose the assertions: give one', { field: '--suite' });
  const since = timeFlag(flags.since, '--since');
  const until = timeFlag(flags.until, '--until');
  if (since && until && since >= until) throw new UserError('--since is not before --until: no trace can be in between', { field: '--since' });
  // A file that would be replaced is refused before anything is read or judged.
  const saveTo = flags.saveFailures !== undefined ? await checkSaveFailures(flags.saveFailures, cwd) : undefined;

  const config = await loadConfigFromFlags(flags, cwd);
  if (saveTo !== undefined) checkWrittenTarget(flags.target, Object.keys(config.targets), 'the cases --save-failures writes');
  const scorings = await loadScorings(config, flags, cwd);
  const read = await readTraces(paths, {
    cwd,
    ...(flags.sample !== undefined ? { sample: flags.sample, seed: flags.seed ?? 0 } : {}),
    ...(since ? { since } : {}),
    ...(until ? { until } : {}),
  });
  if (read.traces.length === 0) throw new UserError(`no trace to score in ${read.files.join(', ')}${read.notes.length ? ` (${read.notes.join('; ')})` : ''}`, { field: '<traces>' });
  const plan = planScored(scorings, read.traces, planDefaults(config));
  if (plan.cases.length === 0) throw new UserError(noneMatched(scorings, read.traces), { field: '<traces>' });
  const scoredFrom: ScoredFrom = {
    files: read.files,
    traces: read.traces.length,
    unmatched: plan.unmatched.length,
    ...(flags.sample !== undefined ? { sample: flags.sample, seed: flags.seed ?? 0 } : {}),
    ...(flags.since !== undefined ? { since: flags.since } : {}),
    ...(flags.until !== undefined ? { until: flags.until } : {}),
    scoring: [...new Set(scorings.map((s) => s.file))],
    ...(flags.suite !== undefined ? { suite: flags.suite } : {}),
  };
  return scorePlanned({ config, plan, scoredFrom, scorings, traces: read.traces, notes: read.notes, saveTo }, flags, cmd, cwd);
}

/** Nothing to score: every trace's metadata missed every scoring's `where`. Said with what the traces hold, so the filter can be fixed. */
function noneMatched(scorings: readonly Scoring[], traces: readonly RecordedTrace[]): string {
  const wheres = scorings.map((s) => `${s.file}: where ${JSON.stringify(s.where ?? {})}`).join('; ');
  return `none of the ${traces.length} traces matches a scoring file's \`where\` (${wheres}); the traces' metadata keys: ${metadataKeys(traces)}`;
}

/** The metadata keys the traces hold, what a `where` can match. */
function metadataKeys(traces: readonly RecordedTrace[]): string {
  const keys = [...new Set(traces.flatMap((t) => Object.keys(t.metadata)))].slice(0, 12);
  return keys.length ? keys.join(', ') : 'none';
}

/** A scoring file that scored nothing while others did: its `where` may hold a typo, and the summary alone would not show it. */
function idleLine(scoring: Scoring, traces: readonly RecordedTrace[]): string {
  return `${scoring.file}: where ${JSON.stringify(scoring.where ?? {})} matches no trace of the ${traces.length} read, so it scored nothing (the traces' metadata keys: ${metadataKeys(traces)})`;
}

async function scorePlanned(
  p: {
    config: ResolvedConfig;
    plan: ScorePlan;
    scoredFrom: ScoredFrom;
    scorings: readonly Scoring[];
    traces: readonly RecordedTrace[];
    notes: readonly string[];
    saveTo: string | undefined;
  },
  flags: ScoreFlags,
  cmd: Command,
  cwd: string,
): Promise<number> {
  const { config, plan, scoredFrom } = p;
  const [{ resolveRunSettings, reporterSpecs }, { openRun }] = await Promise.all([import('../config/run-settings.js'), import('../runner/start-run.js')]);
  const settings = resolveRunSettings(config, flags, process.env);
  // No target runs, so only the judges need their keys.
  const run = openRun(settings, plan.cases, 'score');

  const version = packageVersion();
  const out = flags.json === undefined || flags.json === true ? join(config.outputDir, SCORED_FILE) : resolve(cwd, flags.json);
  const specs = reporterSpecs({ reporters: ['terminal'] }, { ...flags, json: out });
  const hooks = reporterHooks(config.reporterTimeoutMs, settings.interruptGraceMs);
  const reporterContext = { cwd, outputDir: config.outputDir, keepRuns: config.keepRuns, version, verbose: Boolean(flags.verbose), hookBound: hooks.bound };
  const outputs = reporterOutputs(specs, reporterContext);
  // A score never replaces what it read (a results file scored again, as `--json` or by default).
  const read = new Set(scoredFrom.files.map((f) => resolve(cwd, f)));
  const over = outputs.find((o) => o.kind === 'file' && read.has(resolve(o.path)));
  if (over)
    throw new UserError(`would overwrite the trace file ${relative(cwd, over.path) || over.path} it scores: give the results another path`, {
      field: over.field === 'json reporter' ? '--json' : over.field,
    });
  pushAll(outputs, await judgeCacheOutput(plan.cases, settings, config.outputDir));
  await checkOutputs(outputs, config.file);
  const reporters = await buildReporters(specs, reporterContext);
  const base = await runBase(settings, cmd, version, { specs, outputDir: config.outputDir });

  const n = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;
  const shown = (files: readonly string[]) => terminalSafe(files.join(', '));
  const sampled = scoredFrom.sample !== undefined ? ` (--sample ${scoredFrom.sample} --seed ${scoredFrom.seed ?? 0})` : '';
  process.stderr.write(`Scoring ${n(scoredFrom.traces, 'trace')} from ${shown(scoredFrom.files)}${sampled} with ${shown(scoredFrom.scoring)}: no target is called\n`);
  for (const note of p.notes) process.stderr.write(`agent-evals: ${terminalSafe(note)}\n`);
  if (plan.unmatched.length)
    process.stderr.write(
      `agent-evals: ${n(plan.unmatched.length, 'trace')} matched no scoring file's \`where\` and ${plan.unmatched.length === 1 ? 'is' : 'are'} not scored (${terminalSafe(
        plan.unmatched
          .slice(0, 5)
          .map((t) => t.id)
          .join(', '),
      )}${plan.unmatched.length > 5 ? ', ...' : ''})\n`,
    );
  for (const scoring of plan.idle) process.stderr.write(`agent-evals: ${terminalSafe(idleLine(scoring, p.traces))}\n`);
  const traces = new Map([...plan.scored].map(([key, { trace }]) => [key, trace]));
  return withInterrupt(async (interrupt) => {
    const outcome = await run.score({ ...base, traces, scoredFrom, reporters, interrupt });
    if (p.saveTo !== undefined) {
      const line = await saveFailures(p.saveTo, outcome.failed, plan, { target: flags.target, scoredFrom, cwd });
      process.stderr.write(`agent-evals: ${line}\n`);
    }
    return outcome.exitCode;
  }, hooks);
}
