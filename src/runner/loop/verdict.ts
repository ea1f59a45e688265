import type { AssertionResult, CaseVerdict, TrialVerdict } from '../../core/results-schema.js';

/** Pure verdict rules: no I/O, tested on plain objects. */

/** Passes a case needs over `planned` trials: max(1, min(N, ceil(rate·N − 1e-9))). */
export function requiredPasses(planned: number, passRate: number): number {
  return Math.max(1, Math.min(planned, Math.ceil(passRate * planned - 1e-9)));
}

type Graded = Pick<AssertionResult, 'severity' | 'status' | 'score' | 'weight'>;

/** A gate that failed or errored; an errored assertion always counts as a failed gate. */
export function isFailedGate(a: Graded): boolean {
  return a.status === 'error' || (a.severity === 'gate' && a.status === 'failed');
}

export function trialVerdict(assertions: Graded[], targetError: boolean): TrialVerdict {
  if (targetError || assertions.some(isFailedGate)) return 'failed';
  if (assertions.some((a) => a.severity === 'soft' && a.status === 'failed')) return 'scored';
  return 'passed';
}

/** 0 when a gate failed; else the weighted mean of the scored soft assertions; 1 when none. */
export function trialScore(assertions: Graded[], targetError: boolean): number {
  if (targetError || assertions.some(isFailedGate)) return 0;
  const soft = assertions.filter((a) => a.severity === 'soft' && (a.status === 'passed' || a.status === 'failed'));
  const weight = soft.reduce((sum, a) => sum + a.weight, 0);
  if (weight === 0) return 1;
  return soft.reduce((sum, a) => sum + a.score * a.weight, 0) / weight;
}

/**
 * A trial the hard stop of Ctrl-C cut off: not a failure of the target. One that got to pass
 * anyway stands; any other reads `interrupted` and stays out of the case's verdict and score.
 */
export function interruptedTrial<T extends { verdict: TrialVerdict; error?: string }>(trial: T): T & { interrupted?: true } {
  if (trial.verdict === 'passed') return trial;
  return { ...trial, verdict: 'interrupted', interrupted: true, error: trial.error ?? 'interrupted' };
}

/**
 * A trial that failed only because a judge erred: no target error, and every failed gate is a
 * judge error (status `error`, which only a judged assertion has). It still fails; it is counted
 * apart so an outage is not read as the agent getting worse.
 */
export function isJudgeErrorTrial(trial: { verdict: TrialVerdict; error?: string; assertions: Graded[] }): boolean {
  if (trial.verdict !== 'failed' || trial.error !== undefined) return false;
  const failedGates = trial.assertions.filter(isFailedGate);
  return failedGates.length > 0 && failedGates.every((a) => a.status === 'error');
}

/** Trials whose verdict says something about the target (interrupted ones do not). */
export function completedTrials<T extends { verdict: TrialVerdict }>(trials: T[]): T[] {
  return trials.filter((t) => t.verdict !== 'interrupted');
}

/**
 * Whether more trials could change the case verdict: it is decided once it has its required
 * passes, or once the trials left cannot reach them.
 */
export function isDecided(passes: number, finished: number, planned: number, required: number): boolean {
  return passes >= required || passes + (planned - finished) < required;
}

/**
 * A case passes with `required` passed trials. Short of that it is `failed` when a trial failed,
 * `scored` when trials only missed soft assertions, and `skipped` when no trial ran or the run was
 * cut short (interrupt, bail, budget) before the trials that ran could decide it. Interrupted trials
 * decide nothing: a case with only those (and passes short of `required`) is `skipped`.
 */
export function caseVerdict(verdicts: TrialVerdict[], required: number): CaseVerdict {
  const passed = verdicts.filter((v) => v === 'passed').length;
  if (verdicts.length > 0 && passed >= required) return 'passed';
  if (verdicts.includes('failed')) return 'failed';
  if (verdicts.includes('scored')) return 'scored';
  return 'skipped';
}

export function meanStd(values: number[]): { mean: number; stddev: number } {
  if (values.length === 0) return { mean: 0, stddev: 0 };
  const mean = values.reduce((s, v) => s + v, 0) / values.length;
  const variance = values.reduce((s, v) => s + (v - mean) ** 2, 0) / values.length;
  return { mean, stddev: Math.sqrt(variance) };
}

/** Running mean and population stddev (Welford), so a run summary never holds every score. */
export class RunningStats {
  private n = 0;
  private mean = 0;
  private m2 = 0;

  add(value: number): void {
    this.n += 1;
    const delta = value - this.mean;
    this.mean += delta / this.n;
    this.m2 += delta * (value - this.mean);
  }

  get count(): number {
    return this.n;
  }

  result(): { mean: number; stddev: number } {
    return this.n === 0 ? { mean: 0, stddev: 0 } : { mean: this.mean, stddev: Math.sqrt(this.m2 / this.n) };
  }
}
