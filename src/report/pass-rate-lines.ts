import type { PassRate } from '../core/results-schema.js';

const pct = (x: number) => Math.round(x * 100);

/** `3/5 (60%, 95% CI 23–88%)`: passes of the trials that ran, with the Wilson interval. */
export function formatPassRate(p: PassRate): string {
  return `${p.passed}/${p.trials} (${pct(p.rate)}%, 95% CI ${pct(p.low)}–${pct(p.high)}%)`;
}

/** The run's word on judge errors: failures of the judge, not of the agent. */
export function judgeErrorsNote(trials: number): string {
  return `${trials} trial${trials === 1 ? '' : 's'} failed because a judge erred, not the agent (still failures; see the [error] lines)`;
}

/** `2 flaky cases: s/a, s/b` (at most `max` names). */
export function flakyNote(keys: string[], max = 10): string {
  const names = keys.slice(0, max).join(', ') + (keys.length > max ? `, … ${keys.length - max} more` : '');
  return `${keys.length} flaky case${keys.length === 1 ? '' : 's'} (passing and failing trials): ${names}`;
}
