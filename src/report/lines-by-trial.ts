import type { CaseResult, TrialResult } from '../core/results-schema.js';

/** Each line the case's trials give, once, with the trials it came from when the case ran more than one (`… (trials 1, 3)`). */
export function linesByTrial(r: CaseResult, linesOf: (t: TrialResult) => readonly string[]): string[] {
  const trials = new Map<string, number[]>();
  for (const t of r.trials) for (const line of linesOf(t)) trials.set(line, [...(trials.get(line) ?? []), t.index + 1]);
  return [...trials].map(([line, list]) => (r.planned > 1 ? `${line} (trial${list.length > 1 ? 's' : ''} ${list.join(', ')})` : line));
}
