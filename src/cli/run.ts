import type { Command } from 'commander';
import { addSelectionOptions, prepareCases, type SelectionFlags, type ShardPlan } from './prepare.js';
import { collect, concurrency, count, fraction, judgeNoise, timeoutMs, usd } from './parse-number.js';
import { reporterHooks } from '../report/hook-bound.js';
import { buildReporters, reporterOption, reporterOutputs, reportersHelp, terminalInClear } from './reporters.js';
import { checkOutputs } from './output-check.js';
import { packageVersion } from './version.js';
import { withInterrupt } from './interrupt.js';
import { judgeCacheOutput, runBase, writesResults } from './run-base.js';
import { RESULTS_FILE, RESULTS_REPORTER } from '../report/registry.js';
import type { RunFlags } from '../config/run-settings.js';
import type { ResolvedConfig } from '../config/load-config.js';
import type { PlannedCase } from '../suite/plan.js';
import { UserError } from '../core/errors.js';
import { checkMistypedCommand } from './mistyped-command.js';
import { providerList } from '../providers/registry.js';
import type { RejudgedBaseline } from '../stats/effects.js';
import type { RunProvenance } from '../core/results-schema.js';
import type { WatchResults } from './watch-results.js';
import { addCompareOptions, compareOptions, type CompareFlags } from './compare-options.js';
import { baselineName, baselinePath, checkSharesCases, loadComparable, loadRecorded, resolveBaseline } from './baseline-file.js';
import { keptTrials, type ResumeFlags } from './resume.js';
import { nothingFailedLine, preparePicked, type LastFailedFlags } from './last-failed.js';
import { loadToolTape, type ToolTapeFlags } from './tool-tape-flag.js';
import { pushAll } from '../core/push-all.js';
import type { StartOptions } from '../runner/start-run.js';
import type { Reporter } from '../report/reporter.js';
import { draftsSkippedLine } from './draft-cases.js';

export interface RunFlagsRaw extends SelectionFlags, RunFlags, CompareFlags, ResumeFlags, LastFailedFlags, ToolTapeFlags {
  verbose?: boolean;
  saveBaseline?: string | true;
  allowPartial?: boolean;
  baseline?: string;
  watch?: boolean;
  /** `--estimate`, `--force`, `--from`: the cost of the plan before it runs (cli/estimate.ts). */
  estimate?: boolean;
  force?: boolean;
  from?: string;
}

/** `commands`: every command's name, for the hint when a misspelt one arrives here as a path. */
export function registerRun(program: Command, commands: readonly string[] = []): void {
  addCompareOptions(
    addSelectionOptions(
      program.command('run', { isDefault: true }).description('run eval cases and report verdicts (exit 0 pass, 1 fail, 2 bad input, 130 interrupted)'),
      'trials per case (overrides files and config), or min..max for adaptive trials',
    ),
  )
    .option('-j, --concurrency <n>', 'trials in flight at once', concurrency)
    .option('--timeout <ms>', 'per-trial timeout of the target, in ms', timeoutMs)
    .option('--no-early-stop', "run every trial even once a case's verdict is decided")
    .option('--bail', 'stop starting trials after the first failed case')
    .option('--max-failures <n>', 'stop starting trials after n failed cases', count)
    .option('--strict', 'a case that ended `scored` (a soft assertion missed) fails the run')
    .option('--no-strict', 'scored cases do not fail the run, whatever `strict` in the config says')
    .option('--fail-on-flaky', 'a flaky case (both passing and failing trials) fails the run')
    .option('--no-fail-on-flaky', 'flaky cases do not fail the run, whatever `failOnFlaky` in the config says')
    .option('--json [path]', `write the results document (default <outputDir>/${RESULTS_FILE})`)
    .addOption(reporterOption().argParser(collect))
    .addHelpText('after', reportersHelp())
    .option('--silent', 'no terminal reporter (file reporters still write)')
    .option('--no-results', 'leave no results document or run folder (written by default to <outputDir>, for --resume and --last-failed) unless a reporter asks for one')
    .option('-v, --verbose', 'show every assertion, judge evidence and usage per case, and the reply and tool calls (with arguments) of each trial that did not pass')
    .option('--judge <provider:model>', `one judge model for every judged assertion of this run (provider: ${providerList()})`)
    .option('--dry-run', 'no model calls: judges answer from the fake judge, model targets with a placeholder reply')
    .option('--no-cache', 'make every judge call anew: no sharing between repeats, no cache on disk')
    .option('--judge-batch', `send the judges' calls through the providers' batch APIs (${providerList((p) => p.batch)}; the others judge live), at the batch price (verdicts once the batch ends)`)
    .option('--no-judge-batch', 'judge live, whatever `judgeBatch` in the config says')
    .option('--judge-noise <k>', 'ask each judged assertion k more times (cache off) on the first 20 trials of each case, and report its flip rate and score spread', judgeNoise)
    .option('--max-cost <usd>', 'stop starting trials once this many dollars are spent', usd)
    .option('--min-score <x>', 'fail the run when the mean trial score is below x', fraction)
    .option('--min-pass-rate <x>', 'fail the run when the fraction of passed trials is below x', fraction)
    .option('--save-baseline [name]', 'also write the results to <outputDir>/baselines/<name>.json (default name: main)', baselineName)
    .option('--allow-partial', 'let --save-baseline save a filtered or sharded run (the baseline then holds only its cases)')
    .option('--baseline <name|path.json>', 'compare the run with a saved baseline or a results file; too many regressions fail the run')
    .option('--resume [run-id]', 'finish an interrupted run: keep the trials its run folder recorded (default: the newest run folder), run the rest, one results document for the whole plan')
    .option('--retry-errors <results.json>', 'run again only the trials of a results file that ended in a target or judge error, and merge them in')
    .option('--last-failed', 'run only the cases that failed, scored or were flaky in the newest results under outputDir (or --from)')
    .option(
      '--estimate',
      "print the plan's expected target, judge and simulated-user cost, per suite and in total, each case priced from its newest recorded result across the runs kept, and end without calling anything",
    )
    .option(
      '--from <results.json>',
      'the results file that --last-failed and --estimate read (default: the newest results under outputDir; for --estimate, the newest result of each case across the run folders)',
    )
    .option('--force', 'start a run whose estimated cost is above --max-cost even in CI (where it otherwise exits 2)')
    .option('--replay-tools <results.json>', "answer tool calls from a recorded run's tape (same case, tool and arguments, in order) without running the tools; a call off the tape runs live")
    .option('--replay-tools-strict <results.json>', 'like --replay-tools, but a tool call off the tape fails the trial instead of running live')
    .option('-w, --watch', 're-run on save: the cases of changed eval files, every case of a target whose config or source changed (q quits, a re-runs all)')
    .action(async (paths: string[], flags: RunFlagsRaw, cmd: Command) => {
      const cwd = process.cwd();
      checkMistypedCommand(paths, commands, cwd);
      const again = (['resume', 'retryErrors', 'lastFailed'] as const).find((k) => flags[k] !== undefined);
      if (flags.from !== undefined && !flags.lastFailed && !flags.estimate && flags.maxCost === undefined)
        throw new UserError('--from names the results that --last-failed, --estimate and --max-cost read: give one of them too');
      if (flags.estimate) {
        if (flags.watch) throw new UserError('--estimate and --watch do not go together: an estimate runs nothing');
        const [{ printEstimate }, { plannedShutdownWarnings, checkPlannedRefusals }] = await Promise.all([import('./estimate.js'), import('./estimate-warnings.js')]);
        const plan = await prepareCases(paths, flags, cwd);
        if (plan.drafts.length) process.stderr.write(`agent-evals: ${draftsSkippedLine(plan.drafts)}\n`);
        await checkPlannedRefusals(plan.config, plan.cases, flags, process.env);
        const warnings = await plannedShutdownWarnings(plan.config, plan.cases, flags, process.env, new Date());
        process.exitCode = await printEstimate(plan, flags.from, cwd, warnings);
        return;
      }
      if (flags.watch) {
        if (again) throw new UserError(`--watch and --${again.replace(/[A-Z]/g, (ch) => `-${ch.toLowerCase()}`)} do not go together: a watch re-runs the cases a save affects`);
        // A shard is one machine's part of a whole plan; a watch re-runs what changed on this machine.
        if (flags.shard !== undefined) throw new UserError('--watch and --shard do not go together: a watch re-runs the cases a save affects');
        // Each re-run would replace the saved baseline with the few cases a save affected.
        if (flags.saveBaseline && !flags.allowPartial)
          throw new UserError('--watch re-runs only the cases a save affects, so --save-baseline would keep just those: drop --watch, or add --allow-partial');
        const [{ watchRuns }, { WatchResults }] = await Promise.all([import('./watch.js'), import('./watch-results.js')]);
        // The files always describe the whole suite: a re-run's cases over the others' last results.
        const kept = new WatchResults();
        process.exitCode = await watchRuns({ paths, flags, cwd, runPlanned: ({ all, ...plan }) => runPlanned(plan, flags, cmd, cwd, { results: kept, all }) });
        return;
      }
      if (flags.lastFailed && (flags.resume !== undefined || flags.retryErrors !== undefined))
        throw new UserError('--last-failed chooses cases anew; --resume and --retry-errors finish a recorded run: give one');
      const { picked, ...plan } = await preparePicked(paths, flags, cwd);
      if (picked && plan.cases.length === 0) {
        process.stdout.write(`${nothingFailedLine(picked)}\n`);
        process.exitCode = 0;
        return;
      }
      if (plan.drafts.length) process.stderr.write(`agent-evals: ${draftsSkippedLine(plan.drafts)}\n`);
      if (picked) process.stderr.write(`agent-evals: --last-failed: ${plan.cases.length} case${plan.cases.length === 1 ? '' : 's'} that failed, scored or were flaky in ${picked.file}\n`);
      process.exitCode = await runPlanned({ ...plan, ...(picked ? { provenance: { lastFailedFrom: picked.file } } : {}) }, flags, cmd, cwd);
    });
}

/** What an entrance built on `run` adds to its run (`redteam`): the run's id, its own raw reporters, the results' `redteam` section. */
export type RunExtras = Pick<StartOptions, 'runId' | 'redteam'> & { rawReporters?: Reporter[] };

/** One run of planned cases, from checks before the first trial to the reporters; returns the exit code. */
export async function runPlanned(
  {
    config,
    cases,
    shard,
    partial = [],
    provenance,
    drafts = [],
  }: { config: ResolvedConfig; cases: PlannedCase[]; shard?: ShardPlan | undefined; partial?: string[]; provenance?: RunProvenance; drafts?: readonly PlannedCase[] },
  flags: RunFlagsRaw,
  cmd: Command,
  cwd: string,
  /** `--watch`: the whole plan, and the results kept between its runs for the file reporters. */
  watch?: { results: WatchResults; all: PlannedCase[] },
  extras: RunExtras = {},
): Promise<number> {
  const orphan = (['epsilon', 'maxRegressions', 'regressionAlpha', 'rejudge'] as const).find((k) => flags[k] !== undefined);
  if (orphan && flags.baseline === undefined) throw new UserError(`--${orphan.replace(/[A-Z]/g, (ch) => `-${ch.toLowerCase()}`)} needs --baseline (or use \`agent-evals compare\`)`);
  if (flags.allowPartial && !flags.saveBaseline) throw new UserError('--allow-partial needs --save-baseline: it lets a filtered or sharded run save its baseline');
  // A dry run's placeholder replies and fake judge are no record of the agent: saved, it would be the
  // baseline real runs are held to; compared, it would read "unchanged" against one.
  const baselineFlag = flags.saveBaseline !== undefined ? '--save-baseline' : flags.baseline !== undefined ? '--baseline' : undefined;
  if (flags.dryRun && baselineFlag) {
    throw new UserError(
      `${baselineFlag} needs a real run: --dry-run answers with placeholder replies and the fake judge, no record of the agent to ${baselineFlag === '--baseline' ? 'compare' : 'save'}`,
      {
        field: '--dry-run',
      },
    );
  }
  const saveName = flags.saveBaseline === true ? 'main' : flags.saveBaseline;
  // A baseline saved from part of the suite would replace the whole one without a word.
  if (saveName !== undefined && partial.length > 0 && !flags.allowPartial) {
    throw new UserError(
      `this run covers part of the suite (${partial.join(', ')}): the baseline "${saveName}" would hold only its ${cases.length} case${cases.length === 1 ? '' : 's'}. Run without them to save the whole suite, or add --allow-partial to save this part`,
      { field: '--save-baseline' },
    );
  }
  // A baseline is read before any target runs: a bad one is exit 2, not a lost run.
  const baselineFile = flags.baseline !== undefined ? resolveBaseline(flags.baseline, config.outputDir, cwd) : undefined;
  // --rejudge reads the baseline's every recorded trial; a comparison alone, only its counts.
  const recorded = baselineFile && flags.rejudge ? await loadRecorded(baselineFile, cwd, '--baseline', flags.baseline!) : undefined;
  const base = recorded ?? (baselineFile ? await loadComparable(baselineFile, cwd, '--baseline', flags.baseline!) : undefined);
  // A stranger's baseline (another suite's, a CI cache's fallback) would compare nothing and pass.
  const runKeys = cases.map((c) => c.key);
  // The tape too: a missing one is exit 2 before any target runs.
  const toolTape = await loadToolTape(flags, config.outputDir, cwd);
  if (base && baselineFile) checkSharesCases(base, runKeys, { path: baselineFile, cwd, flag: '--baseline', head: 'this run' });
  // --resume, --retry-errors: the recording is read and checked against this plan before any target runs.
  const kept = await keptTrials(flags, cases, config.outputDir, cwd);
  const [{ resolveRunSettings, reporterSpecs }, { openRun }, { shardInfo }] = await Promise.all([
    import('../config/run-settings.js'),
    import('../runner/start-run.js'),
    import('../runner/shards/shard-info.js'),
  ]);
  // A pass rate cut short by early stop is not comparable: a compared or saved run runs every trial
  // (said to the one resolution, as if --no-early-stop had been given).
  const settings = resolveRunSettings(config, base || flags.saveBaseline ? { ...flags, earlyStop: false } : flags, process.env);
  // --max-cost: a plan estimated above the budget is said before it starts (in CI, refused without --force); a dry run spends nothing.
  if (flags.maxCost !== undefined && !watch && !settings.dryRun) {
    const { checkEstimatedBudget } = await import('./estimate.js');
    await checkEstimatedBudget({ config, cases }, flags.maxCost, { from: flags.from, force: Boolean(flags.force), cwd, env: process.env });
  }
  // Judge references and API keys are checked here, before any output is.
  const run = openRun(settings, cases, 'run');
  const version = packageVersion();

  const specs = reporterSpecs(config, flags);
  const saveTo = saveName !== undefined ? baselinePath(config.outputDir, saveName) : undefined;
  const hooks = reporterHooks(config.reporterTimeoutMs, settings.interruptGraceMs);
  const reporterContext = {
    cwd,
    outputDir: config.outputDir,
    keepRuns: config.keepRuns,
    version,
    verbose: Boolean(flags.verbose),
    hookBound: hooks.bound,
    ...(saveTo ? { saveBaseline: saveTo } : {}),
    ...(baselineFile ? { baselineFile } : {}),
  };
  // Every run leaves its results document and run folder (for --resume, --last-failed), named by no `wrote` line.
  const { defaultResultsSpec, defaultResultsPath } = await import('./default-results.js');
  const quietly = await defaultResultsSpec(specs, { results: config.results, flags, ctx: reporterContext, configFile: config.file, note: (line) => process.stderr.write(`agent-evals: ${line}\n`) });
  if (quietly) specs.push(quietly);
  // The baseline is the results document again: the JSON reporter writes it too (added when none was asked for).
  if (saveTo && !writesResults(specs)) specs.push(`${RESULTS_REPORTER}=${saveTo}`);
  // A resumed or retried run is one results document for the whole plan: written even when no reporter asked for it.
  if (kept && !writesResults(specs)) specs.push(RESULTS_REPORTER);
  // Where the run will write is checked before the first trial, not found out after the last.
  const outputs = reporterOutputs(specs, reporterContext);
  if (saveTo) outputs.push({ path: saveTo, kind: 'file', field: '--save-baseline' });
  pushAll(outputs, await judgeCacheOutput(cases, settings, config.outputDir));
  await checkOutputs(outputs, config.file);
  const built = await buildReporters(specs, quietly ? { ...reporterContext, quiet: [defaultResultsPath(config.outputDir)] } : reporterContext);
  const watched = watch ? watch.results.reporters(built, { all: watch.all, ran: cases, gates: settings }) : built;
  // `-v` shows what the agent did, tool data included: the terminal then gets each trial before the
  // trace policy digests it (the run's secrets are redacted before either).
  const { clear, reporters } = flags.verbose ? terminalInClear(watched) : { clear: [], reporters: watched };

  const runOptions = await runBase(settings, cmd, version, { specs, outputDir: config.outputDir });
  if (clear.length) runOptions.rawReporters = [...(runOptions.rawReporters ?? []), ...clear];
  if (extras.rawReporters) runOptions.rawReporters = [...(runOptions.rawReporters ?? []), ...extras.rawReporters];
  // The run folder records the plan as the run begins: what a later --resume checks and finishes.
  if (writesResults(specs)) {
    const { planRecordReporter } = await import('../runner/resume/resume-folder.js');
    runOptions.rawReporters = [...(runOptions.rawReporters ?? []), planRecordReporter({ outputDir: config.outputDir, argv: runOptions.argv, cases })];
  }
  if (kept) process.stderr.write(`agent-evals: ${kept.line}\n`);
  return withInterrupt(async (interrupt) => {
    // --rejudge: the baseline's trials are graded by this run's judges before any target runs.
    let rejudged: RejudgedBaseline | undefined;
    if (recorded && flags.baseline !== undefined) {
      const { rejudgeLine } = await import('../runner/rejudge/rejudge-baseline.js');
      process.stderr.write(`agent-evals: ${rejudgeLine(flags.baseline, recorded)}\n`);
      const r = await run.rejudgeBaseline({ ...runOptions, recorded, file: flags.baseline, interrupt });
      if (r.interrupted) return 130;
      process.stderr.write(`agent-evals: ${r.line}\n`);
      rejudged = r.baseline;
    }
    const { exitCode } = await run.start({
      ...runOptions,
      ...(extras.runId !== undefined ? { runId: extras.runId } : {}),
      ...(extras.redteam ? { redteam: extras.redteam } : {}),
      reporters,
      interrupt,
      ...(kept ? { prior: kept.prior } : {}),
      ...(toolTape ? { toolTape } : {}),
      ...(kept || provenance ? { provenance: { ...provenance, ...kept?.provenance } } : {}),
      ...(shard ? { shard: shardInfo(settings, shard) } : {}),
      ...(drafts.length ? { draftsSkipped: drafts.length } : {}),
      ...(base && flags.baseline !== undefined ? { baseline: { cases: base.cases, options: compareOptions(flags, flags.baseline, base), ...(rejudged ? { rejudged } : {}) } } : {}),
    });
    return watch ? watch.results.exitCode(exitCode) : exitCode;
  }, hooks);
}
