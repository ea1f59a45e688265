import { caseKey } from '../../core/matrix.js';
import type { CaseResult, TrialResult } from '../../core/results-schema.js';
import type { RawCase } from '../../report/raw-trials.js';
import { isJudgeErrorTrial, trialScore, trialVerdict, type PriorCase } from '../loop/index.js';

/**
 * `--resume`: every recorded case keeps the trials that ran to a verdict. A case the recording
 * finished (no trial cut off, not stopped by the interrupt) keeps its not-run trials not run, as
 * early stop, bail or the budget left them; one the interrupt cut short runs the rest. A case the
 * recording does not hold (a hard kill ended the run before it finished) is not here: it runs whole.
 * Pure.
 */
export function resumedPrior(recorded: Iterable<CaseResult>, raw: ReadonlyMap<string, RawCase> | undefined): Map<string, PriorCase> {
  const prior = new Map<string, PriorCase>();
  for (const r of regradedCases(recorded)) {
    const key = caseKey(r);
    const cut = r.notRunReason === 'interrupted' || r.trials.some((t) => t.verdict === 'interrupted');
    const trials = keptTrials(r, raw?.get(key), (t) => t.verdict !== 'interrupted');
    prior.set(key, { trials, ...(!cut && r.notRun > 0 && r.notRunReason ? { notRunReason: r.notRunReason } : {}) });
  }
  return prior;
}

/** Which trials `--retry-errors` runs again, and why. */
export interface RetryPlan {
  prior: Map<string, PriorCase>;
  /** Trials that ended in a target (or check) error, and in a judge error: run again. */
  targetErrors: number;
  judgeErrors: number;
  /** Cases with a trial run again. */
  cases: number;
}

/**
 * `--retry-errors`: a trial that ended in an error of the target (or its check) or of a judge runs
 * again; a failed verdict is the agent's and stays. A case with no such trial is kept whole, its
 * not-run trials not run. In a case with one, every trial not kept may run (early stop decides
 * again: the trials it skipped after an error may now be needed). Pure.
 */
export function retryPrior(recorded: Iterable<CaseResult>, raw: ReadonlyMap<string, RawCase> | undefined): RetryPlan {
  const plan: RetryPlan = { prior: new Map(), targetErrors: 0, judgeErrors: 0, cases: 0 };
  for (const r of regradedCases(recorded)) {
    const key = caseKey(r);
    const targetErrors = r.trials.filter(isTargetErrorTrial).length;
    const judgeErrors = r.trials.filter((t) => isJudgeErrorTrial(t)).length;
    const retried = targetErrors + judgeErrors > 0;
    const trials = keptTrials(r, raw?.get(key), (t) => t.verdict !== 'interrupted' && !isTargetErrorTrial(t) && !isJudgeErrorTrial(t));
    plan.targetErrors += targetErrors;
    plan.judgeErrors += judgeErrors;
    if (retried) plan.cases += 1;
    // A case with nothing to retry keeps its not-run trials not run (`interrupted` when the recording says no reason).
    plan.prior.set(key, { trials, ...(retried ? {} : { notRunReason: r.notRunReason ?? 'interrupted' }) });
  }
  return plan;
}

/**
 * The recorded cases with each trial's verdict and score worked out again from its own recorded
 * assertions and error, by the rules the runner grades with (runner/loop/verdict.ts): a recording edited to say
 * a failing trial passed (or anything else its assertions do not say) is not believed. An interrupted
 * trial stays interrupted: it is not kept, and runs again.
 */
function* regradedCases(recorded: Iterable<CaseResult>): Iterable<CaseResult> {
  for (const r of recorded) yield { ...r, trials: r.trials.map(regraded) };
}

function regraded(t: TrialResult): TrialResult {
  if (t.verdict === 'interrupted') return t;
  const targetError = t.error !== undefined;
  return { ...t, verdict: trialVerdict(t.assertions, targetError), score: trialScore(t.assertions, targetError) };
}

/** A trial the target side ended: its error is set (a target error, a check that threw) and it did not pass. */
function isTargetErrorTrial(t: TrialResult): boolean {
  return t.error !== undefined && t.verdict === 'failed';
}

/**
 * A recorded case's trials that `keep` keeps, by index. Under `trace: safe` the results hold tool
 * data as digests: the run folder's raw trials give the trace and turns back, so the new run's raw
 * trials hold them in clear again (its trace policy digests them once more in every artifact).
 */
function keptTrials(r: CaseResult, raw: RawCase | undefined, keep: (t: TrialResult) => boolean): Map<number, TrialResult> {
  const rawByIndex = new Map((raw?.trials ?? []).map((t) => [t.index, t]));
  const kept = new Map<number, TrialResult>();
  for (const t of r.trials.filter(keep)) {
    const clear = rawByIndex.get(t.index);
    kept.set(t.index, clear ? { ...t, trace: clear.trace, ...(clear.turns ? { turns: clear.turns } : {}) } : t);
  }
  return kept;
}
