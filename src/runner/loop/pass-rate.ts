import type { PassRate, TrialVerdict } from '../../core/results-schema.js';
import { MIN_TRIALS_FOR_INTERVAL, wilsonInterval } from '../../stats/wilson.js';

/** `passed` of `trials` that ran to a verdict, with the 95% Wilson interval; undefined below 2 trials. */
export function passRate(passed: number, trials: number): PassRate | undefined {
  if (trials < MIN_TRIALS_FOR_INTERVAL) return undefined;
  return { passed, trials, rate: passed / trials, ...wilsonInterval(passed, trials) };
}

/**
 * Flaky: the same case both passed and did not, for the agent. Trials that failed only because a
 * judge erred are left out (`judgeError`), and so are interrupted ones: neither says how the agent did.
 */
export function isFlaky(trials: Array<{ verdict: TrialVerdict; judgeError: boolean }>): boolean {
  const counted = trials.filter((t) => t.verdict !== 'interrupted' && !t.judgeError);
  return counted.some((t) => t.verdict === 'passed') && counted.some((t) => t.verdict === 'failed' || t.verdict === 'scored');
}
