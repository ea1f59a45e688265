import { setMaxListeners } from 'node:events';
import pLimit from 'p-limit';
import type { CaseResult, Summary, TrialResult } from '../../core/results-schema.js';
import type { UserModel } from '../users/index.js';
import type { PlannedCase } from '../../suite/plan.js';
import type { Target } from '../../targets/types.js';
import type { JudgeService } from '../../judges/judge-service.js';
import { knownCostUsd, priced, silentPricing, type Pricing } from '../../providers/run-usage.js';
import { caseResult } from './case-result.js';
import { SummaryBuilder } from './summary.js';
import { executeTrial } from './trial.js';
import { interruptedTrial, requiredPasses } from './verdict.js';
import { roundOpen, roundSettled } from './adaptive-trials.js';
import { earlyStopsAt, variantGroup, variantGroupKey, type VariantGroup } from './variant-stop.js';
import { BUDGET_FAILURE } from './exit-code.js';
import type { JudgeBatch } from '../../judges/judge-batch.js';
import type { Usage } from '../../core/usage.js';
import type { AgentRun } from '../../core/agent-run.js';
import type { UserAssertions } from '../../assertions/user-assertion.js';
import type { PriorTrials } from './prior-trials.js';
import type { StopReason } from './stop-reason.js';
import type { TracePolicy } from '../../core/judge-port.js';
import type { TrialToolScopes } from './trial-tools.js';
import { largest } from '../../core/extremes.js';

/** What the runner tells reporters, as it happens. */
export interface RunListener {
  onTrialEnd?(c: PlannedCase, trial: TrialResult): void;
  onCaseEnd?(result: CaseResult, c: PlannedCase): void | Promise<void>;
  onWarning?(message: string): void;
}

export interface RunCasesOptions {
  cases: PlannedCase[];
  targetFor(c: PlannedCase): Target;
  judges: JudgeService;
  pricing: Pricing;
  concurrency: number;
  earlyStop: boolean;
  /** The run's user assertions (its settings'): what a `userAssertion` spec runs. */
  userAssertions: UserAssertions;
  /** The run's trace policy: what the assertions' messages may show of tool data. */
  tracePolicy: TracePolicy;
  skipJudgesOnGateFailure: boolean;
  /** The user model of each case with a `simulatedUser`, per trial (runner/users/user-model.ts; a re-judge's replays the recorded messages). */
  userModel?(c: PlannedCase, trial: number): UserModel;
  /** Stop starting trials after this many failed cases. */
  bail?: number;
  /** Stop starting trials once this many dollars (target + judge) are spent. */
  maxCostUsd?: number;
  /** Soft stop (Ctrl-C): no new trials start; in-flight ones get `graceMs` before they are aborted. */
  interrupt: AbortSignal;
  graceMs: number;
  listener: RunListener;
  /** `--judge-batch`: the run's judge batch, flushed here once no trial is left before its judges. */
  batch?: JudgeBatch;
  /** A re-judge of recorded trials (`agent-evals rejudge`): see `TrialReplay`. */
  replay?: TrialReplay;
  /** `--resume`, `--retry-errors`: recorded trials kept as they are (runner/resume/kept-trials.ts), not run again. */
  prior?: PriorTrials;
  /** The case's `toolResults` and `--replay-tools`: what they answered goes into each trial's result. */
  trialTools?: Pick<TrialToolScopes, 'settle'>;
}

/**
 * How a re-judge runs trials its targets only replay: the trials the recording lacks stay not run
 * (with the recorded reason), each trial that ran keeps what the recording says the agent did and
 * spent, and that spend is not counted again against `--max-cost` (a re-judge pays only its judges).
 */
export interface TrialReplay {
  notRun(c: PlannedCase, index: number): StopReason | undefined;
  /** A simulated user that sends the recorded trial's messages again (the user model is not asked). */
  userModel?(c: PlannedCase, index: number): UserModel;
  restore(c: PlannedCase, trial: TrialResult): TrialResult;
}

export interface RunCasesOutcome {
  /** The run adds its warnings. */
  summary: Omit<Summary, 'warnings'>;
  interrupted: boolean;
}

interface CaseState {
  c: PlannedCase;
  required: number;
  trials: TrialResult[];
  passes: number;
  /** Trials that ended (kept apart from `trials`, which is dropped once the case is finished). */
  ended: number;
  settled: number;
  notRunReason?: StopReason;
  /** The case's matrix variants, this one included: early stop decides for all of them. */
  group: VariantGroup<CaseState>;
}

/** Schedules every trial of every case through one p-limit, deciding cases as trials finish. */
export async function runCases(opts: RunCasesOptions): Promise<RunCasesOutcome> {
  const summary = new SummaryBuilder(opts.cases);
  const limit = pLimit(opts.concurrency);
  const hardStop = new AbortController();
  // Every in-flight trial listens on this one signal: that is by design, not a leak.
  setMaxListeners(0, hardStop.signal);
  let stopped: StopReason | undefined;
  let failedCases = 0;
  let spentUsd = 0;
  let graceTimer: NodeJS.Timeout | undefined;

  const onInterrupt = () => {
    stopped ??= 'interrupted';
    // A submitted batch means every trial is past its target: nothing is left to finish, so the
    // batch is cancelled now rather than after the grace period.
    if (opts.batch && opts.batch.submitted > 0) hardStop.abort();
    else graceTimer = setTimeout(() => hardStop.abort(), opts.graceMs);
  };
  if (opts.interrupt.aborted) onInterrupt();
  else opts.interrupt.addEventListener('abort', onInterrupt, { once: true });

  const finishCase = async (s: CaseState) => {
    const result = caseResult(s.c, s.trials, s.notRunReason);
    // The state lives until the run ends (the queue holds it): drop the finished trials now, so
    // memory does not grow with the suite. Reporters get the result; the JSON one streams it to disk.
    s.trials = [];
    summary.addCase(result);
    if (result.verdict === 'failed') {
      failedCases += 1;
      if (opts.bail !== undefined && failedCases >= opts.bail) stopped ??= 'bail';
    }
    await opts.listener.onCaseEnd?.(result, s.c);
  };

  const settle = async (s: CaseState) => {
    s.settled += 1;
    roundSettled(s.group);
    if (s.settled === s.c.repeat) await finishCase(s);
  };

  const spend = (usd: number) => {
    spentUsd += usd;
    if (opts.maxCostUsd !== undefined && spentUsd >= opts.maxCostUsd && !stopped) {
      stopped = 'budget';
      summary.failures.push(`${BUDGET_FAILURE} $${opts.maxCostUsd} spent ($${spentUsd.toFixed(4)}): no new trials were started`);
    }
  };
  // A target cost that is unknown as a whole (an unanswered or unpriced call) still has priced calls to count.
  const targetCost = (usage: Usage, run: Omit<AgentRun, 'reply'>) => (opts.replay ? 0 : (usage.costUsd ?? knownCostUsd(run, opts.pricing)));
  // A replay's target usage is the recording's (restored on the trial): priced again, it would warn about a target no one called.
  const targetPricing = opts.replay ? silentPricing(opts.pricing.overrides) : opts.pricing;

  /** `onJudging`: the trial leaves its concurrency slot as its judges start (batch mode). */
  const runTrial = async (s: CaseState, index: number, onJudging?: () => void) => {
    const prior = opts.prior?.get(s.c.key);
    const kept = prior?.trials.get(index);
    // Kept as recorded: its target and judges are not called, nor its spend counted again against the budget.
    if (kept) return endTrial(s, kept);
    // A passAt/passHat case runs all its trials: stopping once its verdict is settled would bias the estimate.
    const reason: StopReason | undefined =
      stopped ?? prior?.notRunReason ?? opts.replay?.notRun(s.c, index) ?? ((opts.earlyStop || s.c.adaptive) && !s.c.reducer && earlyStopsAt(s.group, index) ? 'early-stop' : undefined);
    if (reason) {
      s.notRunReason ??= reason;
      return settle(s);
    }
    let counted: number | undefined;
    const ran = await executeTrial(s.c, index, {
      target: opts.targetFor(s.c),
      judges: opts.judges,
      pricing: targetPricing,
      userAssertions: opts.userAssertions,
      tracePolicy: opts.tracePolicy,
      ...(opts.userModel ? { userModel: opts.userModel } : {}),
      skipJudgesOnGateFailure: opts.skipJudgesOnGateFailure,
      signal: hardStop.signal,
      ...(onJudging
        ? {
            onJudging: (usage: Usage, run: AgentRun) => {
              // Counted now: the judges may wait on a batch for long, and the budget should see the targets' spend.
              counted = targetCost(usage, run);
              spend(counted);
              onJudging();
            },
          }
        : {}),
    });
    // The hard stop is the only thing that aborts every trial: one that ends after it was cut off.
    const done = opts.replay ? opts.replay.restore(s.c, ran) : opts.trialTools ? opts.trialTools.settle(s.c, ran) : ran;
    const trial = hardStop.signal.aborted ? interruptedTrial(done) : done;
    if (trial.verdict === 'interrupted') s.notRunReason ??= 'interrupted';
    spend((counted === undefined ? targetCost(trial.usage.target, trial.trace) : 0) + (trial.usage.judge.costUsd ?? 0) + (trial.usage.user?.costUsd ?? 0));
    return endTrial(s, trial);
  };

  const endTrial = (s: CaseState, trial: TrialResult) => {
    s.trials.push(trial);
    s.ended += 1;
    if (trial.verdict === 'passed') s.passes += 1;
    opts.listener.onTrialEnd?.(s.c, trial);
    return settle(s);
  };

  const states = caseStates(opts.cases);
  const order = trialOrder(states, opts.concurrency, (s) => s.group);
  if (opts.batch) await runBatched(opts.batch);
  else await Promise.all(order.map(([s, i]) => afterRound(s, i, () => limit(() => runTrial(s, i)))));

  /**
   * Batch mode. A trial waiting on the batch would hold its slot forever, so it leaves the slot as
   * its judges start, and the next trial takes it. Once no trial is before its judges (none running
   * its target, none waiting to start), what the judges queued goes out together: one batch per
   * provider and model for the whole run, however many trials and whatever the concurrency. Calls
   * queued after a flush (a judge asked after an answer) make the next flush.
   */
  async function runBatched(batch: JudgeBatch): Promise<void> {
    const trials: Array<Promise<void>> = [];
    let checking = false;
    const check = () => {
      if (checking) return;
      checking = true;
      // After this turn's microtasks: the judges of trials that just left their slot have queued their calls by then.
      setImmediate(() => {
        checking = false;
        if (limit.activeCount === 0 && limit.pendingCount === 0 && batch.queued > 0) void flush(batch);
      });
    };
    batch.onQueued(check);
    await Promise.all(
      order.map(([s, i]) =>
        afterRound(s, i, () =>
          limit(
            () =>
              new Promise<void>((leave) => {
                const done = () => (leave(), check());
                trials.push(runTrial(s, i, done).finally(done));
              }),
          ),
        ),
      ),
    );
    await Promise.all(trials);
  }

  async function flush(batch: JudgeBatch): Promise<void> {
    if (stopped === 'interrupted') {
      // No trial is left before its judges: marking the cut-off ones interrupted is all that is left.
      hardStop.abort();
      return batch.failQueued(new Error('interrupted before the judge batch was sent'));
    }
    if (opts.maxCostUsd !== undefined) {
      const estimate = batch.estimate().reduce((sum, e) => sum + (priced(e, e.spec, opts.pricing, { batch: true }).costUsd ?? 0), 0);
      const left = opts.maxCostUsd - spentUsd;
      if (estimate > left) {
        stopped ??= 'budget';
        summary.failures.push(`${BUDGET_FAILURE} $${opts.maxCostUsd} would be exceeded: the judge batch was not sent (estimated $${estimate.toFixed(4)}, $${Math.max(0, left).toFixed(4)} left)`);
        return batch.failQueued(new Error(`not sent: the judge batch's estimated cost $${estimate.toFixed(4)} is over the $${Math.max(0, left).toFixed(4)} left of the cost budget`));
      }
    }
    await batch.flush(hardStop.signal);
  }

  opts.interrupt.removeEventListener('abort', onInterrupt);
  if (graceTimer) clearTimeout(graceTimer);
  return { summary: summary.result(), interrupted: stopped === 'interrupted' };
}

/** Adaptive trials (`repeat: { min, max }`) queue a round once the one before it settled (adaptive-trials.ts). */
function afterRound(s: CaseState, index: number, queue: () => Promise<void>): Promise<void> {
  const wait = roundOpen(s.group, index);
  return wait ? wait.then(queue) : queue();
}

/** Each case's state, the variants of a matrix case sharing one group (plain cases a group of their own). */
function caseStates(cases: PlannedCase[]): CaseState[] {
  const groups = new Map<string, VariantGroup<CaseState>>();
  return cases.map((c): CaseState => {
    const key = c.matrix ? variantGroupKey(c) : c.key;
    const group = groups.get(key) ?? variantGroup<CaseState>([]);
    groups.set(key, group);
    const s: CaseState = { c, required: requiredPasses(c.repeat, c.passRate), trials: [], passes: 0, ended: 0, settled: 0, group };
    group.variants.push(s);
    return s;
  });
}

/**
 * The order trials are queued in. Cases go in windows of `concurrency`; within a window, round by
 * round (every case's trial 0, then every case's trial 1, …). A case's later trials thus start after
 * its first ones had time to finish, so early stop can skip them, while only a couple of windows of
 * cases are open at once, which keeps memory flat however large the suite. A window is stretched
 * so that the adjacent variants of one case (`groupOf`) share it: early stop waits for all of them,
 * and a variant left to a later window would hold the others' early stop off.
 */
export function trialOrder<S extends { c: { repeat: number } }>(states: S[], concurrency: number, groupOf?: (s: S) => unknown): Array<[S, number]> {
  const order: Array<[S, number]> = [];
  const window = Math.max(1, concurrency);
  for (let start = 0; start < states.length;) {
    let end = Math.min(states.length, start + window);
    while (groupOf && end < states.length && groupOf(states[end]!) === groupOf(states[end - 1]!)) end += 1;
    const group = states.slice(start, end);
    const rounds = largest(group.map((s) => s.c.repeat));
    for (let r = 0; r < rounds; r++) for (const s of group) if (r < s.c.repeat) order.push([s, r]);
    start = end;
  }
  return order;
}
