import type { Reporter, ReporterEvents } from '../../report/reporter.js';
import { failureLine, multiplexReporters, type Multiplexer } from '../../report/multiplexer.js';
import { readOnlyReporter } from '../../report/read-only-reporter.js';
import { redactingReporter } from './redacting-reporter.js';
import { askedBoundReporter } from './case-asked.js';
import { underTracePolicy } from './trace-policy-reporter.js';
import type { RejudgedFrom, RunInfo, RunProvenance, ScoredFrom, ShardInfo, Summary, TrialResult } from '../../core/results-schema.js';
import type { RedteamSummary } from '../../core/redteam-schema.js';
import type { PlannedCase } from '../../suite/plan.js';
import type { Target } from '../../targets/types.js';
import { ProviderLimiters } from '../../providers/adaptive-limit.js';
import type { SecretRedactor } from '../../providers/secret-redactor.js';
import { caseTarget, createIsolatedTarget, guardTargetFaults, isIsolated, trapProcessEnd } from '../isolation/index.js';
import { DEFAULT_LOAD_TIMEOUT_MS } from '../../suite/import-module.js';
import { createTarget } from '../../targets/create-target.js';
import { mcpServerPool } from '../../targets/mcp-servers.js';
import type { McpListedTools } from '../../core/mcp-listed-tools.js';
import { runFolder } from '../../report/run-folders.js';
import { skipEmptyReplies, type JudgeService } from '../../judges/judge-service.js';
import { runCases, type TrialReplay } from './run-cases.js';
import type { PriorTrials } from './prior-trials.js';
import { exitCodeFor, runGateFailures, withOutputs } from './exit-code.js';
import { caseView } from './case-view.js';
import { runTeardown, stepFailureLine, type TeardownStep } from './teardown.js';
import { warningPricing } from '../../providers/run-usage.js';
import { checkBudgetPricing } from './budget-pricing.js';
import { retiredModelWarnings, type ModelCaller } from './retired-models.js';
import { runModelCallers } from './run-model-callers.js';
import { pdfLimitErrors } from './pdf-limit-check.js';
import { stalePriceWarnings } from './stale-prices.js';
import { resolvePrice } from '../../providers/pricing.js';
import { UserErrors } from '../../core/errors.js';
import { dayOf } from '../../providers/model-retirement.js';
import { embeddingModelsOf } from '../../judges/embedding-check.js';
import { userModels, type UserFixtures } from '../users/index.js';
import type { RunSettings } from './settings.js';
import { comparableCase, type ComparableCase } from '../../stats/compared-case.js';
import { compareRuns, type CompareOptions } from '../../stats/compare-runs.js';
import { compareEffects, type RejudgedBaseline } from '../../stats/effects.js';
import { comparisonFailure } from '../../report/comparison-lines.js';
import { selfPreferenceWarnings } from '../../judges/self-preference.js';
import { runIdAt } from './run-id.js';
import { gitHead } from './git-head.js';
import type { ToolTape } from './tool-tape.js';
import { trialToolScopes } from './trial-tools.js';
import { JudgeBatch } from '../../judges/judge-batch.js';
import type { BatchPolling } from '../../judges/batch-polling.js';
import type { CollectRequest } from '../../judges/batch-collect.js';
import type { JudgeServiceOptions } from '../../judges/create-judge-service.js';

/**
 * What the run hands its judge service: its pricing and warnings, environment, limiters and batch.
 * The judge service's own options less what the front door gives (the settings, the redactor): one
 * concept, one definition.
 */
export type JudgeRunDeps = Omit<JudgeServiceOptions, 'settings' | 'redactor'>;

export interface ExecuteOptions {
  /** Flags, config and defaults, merged once (config/run-settings.ts). */
  settings: RunSettings;
  cases: PlannedCase[];
  /**
   * Every output; each is called through a guard (see `multiplexReporters`), with secrets redacted,
   * and sees the trace policy's view (`safe`: tool data as digests).
   */
  reporters: Reporter[];
  /**
   * What sees the cases before the trace policy (secrets still redacted), never a shareable
   * artifact: the run folder's raw trials, `evaluate()`'s own result. Told before the reporters.
   */
  rawReporters?: Reporter[];
  /** Where a run-level problem (a reporter or a teardown step that failed) goes, one line each; default stderr. */
  problem?(line: string): void;
  /** Builds the judge service once pricing and warnings exist; `prepare` may reject bad judges up front. */
  judges(deps: JudgeRunDeps): JudgeService & {
    prepare?(cases: PlannedCase[]): void;
    judgeModels?(cases: PlannedCase[]): string[];
    judgeModelUses?(cases: PlannedCase[]): ModelCaller[];
    close?(): Promise<void>;
  };
  interrupt: AbortSignal;
  argv: string[];
  version: string;
  /** The run's secret values: targets redact them before cutting an error body short. */
  redactor?: SecretRedactor;
  /** The scripted user models' fixtures as the check before the run read them (runner/start-run.ts): not read again. */
  userFixtures?: UserFixtures;
  /**
   * A baseline's cases to compare the run with (`--baseline`); too many regressions fail the run. With
   * `rejudged` (`--rejudge`), the baseline re-judged by this run's judges: the agent effect counts, the
   * judge effect is shown (stats/effects.ts).
   */
  baseline?: { cases: ComparableCase[]; options: CompareOptions; rejudged?: RejudgedBaseline };
  /** This run is one shard of a plan (`--shard k/n`): recorded in the results for `agent-evals merge`. */
  shard?: ShardInfo;
  /** A run inside a test file (`evaluate()`): its fault guard leaves the process when the run ends. */
  inProcess?: boolean;
  /** Where a judge batch's progress lines go; default stderr. */
  progress?(line: string): void;
  /** How a judge batch is polled (tests give a `sleep` that does not wait on the clock). */
  batchPolling?: Partial<BatchPolling>;
  /** `rejudge --batch <id>`: the recorded uncollected batch whose answers judge the calls they were made for (batch-collect.ts). */
  collect?: CollectRequest;
  /**
   * A re-judge (runner/rejudge/rejudge.ts) or a score of recorded traces (runner/score/score.ts): no
   * target is built; each case's trials are replayed from the recording, and the run says which run it
   * re-judged and which cases it could not (`from`), or which traces it scored (`scoredFrom`).
   */
  replay?: TrialReplay & { targetFor(c: PlannedCase): Target; from?: RejudgedFrom; scoredFrom?: ScoredFrom; mcpTools?: McpListedTools };
  /** `run --resume`, `run --retry-errors`: recorded trials the run keeps instead of running them (runner/resume/kept-trials.ts). */
  prior?: PriorTrials;
  /** `--replay-tools`: tool calls answered from a recorded run's tape (runner/loop/tool-tape.ts). */
  toolTape?: ToolTape;
  /** Where the kept trials or chosen cases came from (`--resume`, `--retry-errors`, `--last-failed`): recorded in `run`. */
  provenance?: RunProvenance;
  /** Draft cases (`draft: true`) the selection matched and the run skipped (no `--include-drafts`): counted in the summary. */
  draftsSkipped?: number;
  /** The run's id, when its entrance wrote into the run folder before the run began (`redteam`'s attack suite); default: made now. */
  runId?: string;
  /**
   * `agent-evals redteam`: the results' `redteam` section, made once the last case ended from the run's
   * info and summary (the cases it read from its own raw reporter); every reporter gets it in `onEnd`.
   */
  redteam?(head: { run: RunInfo; summary: Summary }): RedteamSummary;
}

/** A whole run: targets built once, trials scheduled, run gates applied, reporters told. */
export async function executeRun(opts: ExecuteOptions): Promise<RunOutcome> {
  const { settings } = opts;
  const started = Date.now();
  const startedAt = new Date(started).toISOString();
  const runId = opts.runId ?? runIdAt(startedAt);
  // Known now (git asked in the background when the files do not say): never a spawn at the run's end.
  const sha = gitHead(settings.rootDir);

  const write = opts.problem ?? ((line: string) => void process.stderr.write(`agent-evals: ${line}\n`));
  const problem = (line: string) => write(opts.redactor ? opts.redactor.redact(line) : line);
  // Each reporter is handed frozen payloads, after the trace policy made its view: none can change what another reads.
  const raw = (opts.rawReporters ?? []).map(readOnlyReporter);
  const mux = multiplexReporters([...raw, ...underTracePolicy(opts.reporters.map(readOnlyReporter), settings.judging.trace)], (f) => problem(failureLine(f)));
  // Redacted whole, then what each case asked is cut: a cut never keeps part of a secret.
  const cutting = askedBoundReporter(mux);
  const reporter = opts.redactor ? redactingReporter(cutting, opts.redactor) : cutting;

  const warnings: string[] = [];
  const warn = (message: string) => {
    warnings.push(message);
    reporter.onWarning(message);
  };
  const endFaultGuard = guardTargetFaults(warn, { remove: opts.inProcess === true });
  // A process.exit no trial could take fails the run: the run goes on and says so.
  const strayEnds: string[] = [];
  const endExitTrap = trapProcessEnd(
    (line) => {
      strayEnds.push(line);
      warn(line);
    },
    { restore: opts.inProcess === true },
  );
  // The end of the run, as named steps that all run (each in turn, whatever the others did) even
  // when the run itself threw. The run adds its steps as what they close comes to exist.
  const steps: TeardownStep[] = [];
  // Made per run from its settings: a second run in the same process starts from fresh limiters.
  const limiters = new ProviderLimiters(settings.concurrency, { proxy: settings.proxy });
  let ran: { exitCode: number; summary: Summary } | undefined;
  try {
    ran = await runWith(opts, { started, startedAt, runId, sha, warnings, warn, reporter, mux, steps, limiters, strayEnds });
  } finally {
    const failed = await runTeardown([...steps, { name: 'target fault guard', output: false, run: endFaultGuard }, { name: 'process exit trap', output: false, run: endExitTrap }]);
    for (const f of failed) problem(stepFailureLine(f));
    if (ran) ran = { ...ran, exitCode: withOutputs(ran.exitCode, mux.failures.length > 0 || failed.some((f) => f.step.output)) };
    // A trapped exit after the summary was made (a timer firing while the results are written) still fails the run.
    if (ran && ran.exitCode === 0 && strayEnds.some((line) => !ran!.summary.failures.includes(line))) ran = { ...ran, exitCode: 1 };
  }
  // Defined: had the run thrown, the `finally` would have rethrown it.
  return { ...ran!, limiters };
}

export interface RunOutcome {
  exitCode: number;
  summary: Summary;
  /** The run's provider limiters, as the run left them (how far each endpoint backed off). */
  limiters: ProviderLimiters;
}

interface RunContext {
  started: number;
  startedAt: string;
  runId: string;
  sha: Promise<string | null>;
  warnings: string[];
  warn(message: string): void;
  reporter: ReporterEvents;
  mux: Multiplexer;
  steps: TeardownStep[];
  limiters: ProviderLimiters;
  /** Trapped process-ending calls no trial could take: each a run failure. */
  strayEnds: string[];
}

async function runWith(
  opts: ExecuteOptions,
  { started, startedAt, runId, sha, warnings, warn, reporter, mux, steps, limiters, strayEnds }: RunContext,
): Promise<{ exitCode: number; summary: Summary }> {
  const { settings } = opts;
  const { env } = settings;
  // Only what a comparison reads is kept of each case, never its trials' data.
  const compared: ComparableCase[] = [];
  // Each case as planned: its settings (`--timeout`, `--repeat` among them) were merged by the planner.
  const { cases } = opts;

  // One adapter per named target (an inline TS target is keyed by its file; an isolated one by its
  // eval file, so its dataset rows share its workers); every trial still invokes it afresh.
  const targetKey = (c: PlannedCase) => (typeof c.target === 'string' ? c.target : `${c.isolate?.module ?? c.file}#inline`);
  const targets = new Map<string, Target>();
  // Started by the first trial that needs each (their stderr in the run folder), ended with the run:
  // a teardown step runs on Ctrl-C too, and a second Ctrl-C's exit kills their process groups.
  // Under `--replay-tools` a server the recording listed is started only by a call the tape does not answer.
  const mcp = mcpServerPool({
    servers: settings.mcpServers ?? {},
    rootDir: settings.rootDir,
    env,
    proxy: settings.proxy,
    logDir: runFolder(settings.judging.outputDir, runId),
    recorded: opts.toolTape?.mcpTools,
  });
  steps.push({ name: 'MCP servers', output: false, run: () => mcp.close() });
  // A re-judge builds none: its replays stand in for them.
  for (const c of opts.replay ? [] : cases) {
    const key = targetKey(c);
    if (targets.has(key)) continue;
    const { spec, source } = caseTarget(c, settings.targets);
    const targetSettings = {
      rootDir: settings.rootDir,
      configFile: settings.configFile,
      env,
      limiters,
      dryRun: settings.dryRun,
      warn,
      mcp,
      ...(opts.redactor ? { redactor: opts.redactor } : {}),
      ...(settings.mcpServers ? { mcpServers: settings.mcpServers } : {}),
    };
    if (!isIsolated(spec)) {
      targets.set(key, await createTarget(c.targetName, spec, targetSettings));
      continue;
    }
    const isolated = await createIsolatedTarget(c.targetName, spec, source, { ...targetSettings, loadTimeoutMs: settings.loadTimeoutMs ?? DEFAULT_LOAD_TIMEOUT_MS });
    // Its spare workers end with the run (in a test file's evaluate() too, not only at the CLI's exit).
    steps.push({ name: `workers of target "${c.targetName}"`, output: false, run: () => isolated.close() });
    targets.set(key, isolated);
  }
  const targetFor = opts.replay ? opts.replay.targetFor : (c: PlannedCase) => targets.get(targetKey(c))!;
  // PDFs over what a target's model takes per request: exit 2 before any trial.
  const pdfErrors = pdfLimitErrors(cases, targetFor);
  if (pdfErrors.length) throw pdfErrors.length === 1 ? pdfErrors[0]! : new UserErrors(pdfErrors);

  const { maxCostUsd, budgetField } = settings;
  const pricing = warningPricing(settings.pricing, (message) => warn(message + (maxCostUsd !== undefined ? `; ${budgetField.field} cannot count it` : '')));

  // A dry run asks the fake judge, which has nothing to batch.
  const showProgress = opts.progress ?? ((line: string) => void process.stderr.write(`agent-evals: ${line}\n`));
  // A provider's error text (a cancel that failed) may quote a secret: redacted like every other line.
  const progress = (line: string) => showProgress(opts.redactor ? opts.redactor.redact(line) : line);
  const batch =
    settings.judging.batch && !settings.dryRun
      ? new JudgeBatch({ progress, warn, ...(opts.batchPolling ? { polling: opts.batchPolling } : {}), ...(opts.collect ? { collect: opts.collect } : {}) })
      : undefined;
  const judges = opts.judges({ pricing, warn, env, limiters, ...(batch ? { batch } : {}) });
  // Flushes the judge cache. Not an output: an answer the cache could not keep is asked again later.
  steps.push({ name: 'judge cache', output: false, run: () => judges.close?.() });
  judges.prepare?.(cases);
  // Before any trial (and any output): a batch that cannot be collected ends the command here.
  await batch?.collect(opts.interrupt);
  for (const { key, message } of opts.replay?.from?.cannotRejudge ?? []) warn(`cannot rejudge ${key}: ${message}`);
  const matrixTargets = new Map(cases.filter((c) => c.matrix).map((c) => [targetKey(c), targetFor(c)]));
  if (matrixTargets.size && settings.judging.selfJudgingWarning) for (const w of selfPreferenceWarnings([...matrixTargets.values()], judges.judgeModels?.(cases) ?? [])) warn(w);
  // A model the tables say has shut down: once per model, before any trial (a dry run calls none).
  if (!settings.dryRun) {
    const callers = runModelCallers({ targets: [...targets.values()], judgeUses: judges.judgeModelUses?.(cases) ?? [], cases, judging: settings.judging, users: !opts.replay });
    for (const w of retiredModelWarnings(callers, dayOf(new Date(started)))) warn(w);
    for (const w of stalePriceWarnings(callers, (model) => resolvePrice(model, settings.pricing))) warn(w);
  }
  if (maxCostUsd !== undefined && !settings.dryRun) {
    const all = [...targets.values()];
    const spenders = {
      priced: [
        ...all.filter((t) => t.model !== undefined).map((t) => ({ who: `target "${t.name}"`, model: t.model! })),
        ...(judges.judgeModels?.(cases) ?? []).map((model) => ({ who: 'judge', model })),
        ...embeddingModelsOf(cases, settings.judging.embeddingModel).map((model) => ({ who: 'similarTo embeddings', model })),
      ],
      pricedAtRunTime: all.filter((t) => t.model === undefined).map((t) => t.name),
    };
    checkBudgetPricing(spenders, settings.pricing, budgetField, warn);
  }

  await reporter.onBegin({
    runId,
    startedAt,
    config: settings.configFile,
    cases: cases.length,
    trials: cases.reduce((s, c) => s + c.repeat, 0),
    concurrency: settings.concurrency,
    strict: settings.strict,
    ...(opts.provenance ? { provenance: opts.provenance } : {}),
    ...(opts.shard ? { shard: { index: opts.shard.index, total: opts.shard.total } } : {}),
  });
  // A re-judge's targets replay recorded trials: no tool runs, nothing is served in place of one.
  const trialTools = opts.replay ? undefined : trialToolScopes(opts.toolTape);
  const outcome = await runCases({
    cases,
    targetFor: trialTools ? (c) => trialTools.targetFor(c, targetFor(c)) : targetFor,
    ...(trialTools ? { trialTools } : {}),
    judges: settings.judgeEmptyReplies ? judges : skipEmptyReplies(judges),
    pricing,
    concurrency: settings.concurrency,
    earlyStop: settings.earlyStop,
    userAssertions: settings.userAssertions,
    tracePolicy: settings.judging.trace,
    // A re-judge replays the recorded messages: no user model is asked again.
    ...(cases.some((c) => c.simulatedUser) ? { userModel: opts.replay ? opts.replay.userModel : userModels({ judging: settings.judging, env, limiters, pricing, fixtures: opts.userFixtures }) } : {}),
    skipJudgesOnGateFailure: settings.skipJudgesOnGateFailure,
    bail: settings.bail,
    maxCostUsd,
    interrupt: opts.interrupt,
    graceMs: settings.interruptGraceMs,
    ...(batch ? { batch } : {}),
    ...(opts.replay ? { replay: opts.replay } : {}),
    ...(opts.prior ? { prior: opts.prior } : {}),
    // Reporters see a read-only view of each case, not the planner's object with its functions.
    listener: {
      // No reporter hears a trial's end (the terminal off a TTY, the files): no event is made, nor redacted.
      ...(mux.hearsTrials ? { onTrialEnd: (c: PlannedCase, trial: TrialResult) => reporter.onTrialEnd(caseView(c), trial) } : {}),
      onCaseEnd: (result, c) => {
        if (opts.baseline) compared.push(comparableCase(result));
        return reporter.onCaseEnd(result, caseView(c));
      },
      onWarning: (message) => reporter.onWarning(message),
    },
  });
  const unused = batch?.collectedUnused;
  if (unused)
    warn(
      `judge batch ${unused.id}: ${unused.count} of its answers matched no judgment of this re-judge (its judges, criteria or cases changed since the run, or identical calls shared one answer through the judge cache): not used`,
    );
  // Callbacks a finished target left queued (a setImmediate calling process.exit) run before the verdict is made.
  await new Promise<void>((done) => setImmediate(done));
  const { baseline } = opts;
  const comparison = baseline?.rejudged ? compareEffects(baseline.rejudged, compared, baseline.options) : baseline ? compareRuns(baseline.cases, compared, baseline.options) : undefined;
  const summary: Summary = {
    ...outcome.summary,
    failures: [...outcome.summary.failures, ...strayEnds, ...runGateFailures(outcome.summary, settings), ...(comparison?.failed ? [comparisonFailure(comparison)] : [])],
    // A copy: the reporters get the summary frozen, and a warning can still come while they write.
    warnings: [...warnings],
    ...(batch?.uncollected.length ? { uncollectedBatches: [...batch.uncollected] } : {}),
    ...(opts.draftsSkipped ? { draftsSkipped: opts.draftsSkipped } : {}),
  };
  // Reporters that already failed are known now, so the others (the results file) record the exit code
  // the process will end with; one failing in its own onEnd can only change it afterwards.
  const exitCode = withOutputs(exitCodeFor(summary, { strict: settings.strict, interrupted: outcome.interrupted }), mux.failures.length > 0);
  const run: RunInfo = {
    id: runId,
    startedAt,
    durationMs: Date.now() - started,
    gitSha: await sha,
    argv: opts.argv,
    config: settings.configFile,
    interrupted: outcome.interrupted,
    ...(settings.dryRun ? { dryRun: true as const } : {}),
    trace: settings.judging.trace,
    ...(opts.shard ? { shard: opts.shard } : {}),
    ...(opts.replay?.from ? { rejudgedFrom: opts.replay.from } : {}),
    ...(opts.replay?.scoredFrom ? { scoredFrom: opts.replay.scoredFrom } : {}),
    ...opts.provenance,
    ...mcpToolsOf(opts.replay?.mcpTools ?? mcp.listed()),
  };
  const redteam = opts.redteam?.({ run, summary });
  const end = { run, summary, exitCode, ...(comparison ? { comparison } : {}), ...(redteam ? { redteam } : {}) };
  steps.push({ name: 'reporters (results file, onEnd)', output: true, run: () => reporter.onEnd(end) });
  return { exitCode, summary };
}

/** The run's listed MCP tools as the results keep them: absent when no server listed any. */
function mcpToolsOf(listed: McpListedTools): { mcpTools?: McpListedTools } {
  return Object.keys(listed).length > 0 ? { mcpTools: listed } : {};
}
