import { z } from 'zod';
import { smallest } from './extremes.js';

/**
 * How a judge panel's member scores become the assertion's one score (docs/guide/judges.md, "Judge
 * panels"); the verdict is then that score against the threshold, as for a single judge.
 * `majority`: the score a strict majority of the members reach or exceed (the lower median: the
 * ⌊n/2⌋+1-th highest), so it is at or above the threshold exactly when more than half the members are;
 * `mean`: the members' mean; `min`: the lowest (every member must pass).
 */
export const PanelAggregateSchema = z.enum(['majority', 'mean', 'min']);
export type PanelAggregate = z.infer<typeof PanelAggregateSchema>;

/** The aggregate of a non-empty list of scores. */
export function aggregateScores(scores: readonly number[], aggregate: PanelAggregate): number {
  if (scores.length === 0) throw new Error('aggregateScores: no scores');
  switch (aggregate) {
    case 'mean':
      return scores.reduce((a, b) => a + b, 0) / scores.length;
    case 'min':
      return smallest(scores);
    case 'majority':
      return [...scores].sort((a, b) => b - a)[Math.floor(scores.length / 2)]!;
  }
}
