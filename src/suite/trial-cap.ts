import { UserError } from '../core/errors.js';

/**
 * A run's trials, counted from its cases' repeats (each matrix value is its own case already), and
 * refused above the config's `maxTrials` before any trial is scheduled: a typo such as
 * `--repeat 1000000000` is exit 2 naming the count, not a heap exhausted by the schedule.
 */
export function checkTrialCap(cases: ReadonlyArray<{ repeat: number }>, cap: { maxTrials: number; file: string | null }): void {
  const trials = cases.reduce((sum, c) => sum + c.repeat, 0);
  if (trials <= cap.maxTrials) return;
  const n = (x: number) => x.toLocaleString('en-US');
  throw new UserError(
    `this run plans ${n(trials)} trials (${n(cases.length)} case${cases.length === 1 ? '' : 's'} with their repeats), above the cap of ${n(cap.maxTrials)} trials per run; lower --repeat or select fewer cases, or raise \`maxTrials\` in the config`,
    { ...(cap.file ? { file: cap.file } : {}), field: 'maxTrials' },
  );
}
