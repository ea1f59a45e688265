import type { CaseResult } from '../core/results-schema.js';

type JudgeNoise = NonNullable<CaseResult['judgeNoise']>;

/** The tag a case whose miss lies within its judge's noise carries in every reporter. */
export const WITHIN_JUDGE_NOISE = 'within judge noise';

const pct = (x: number) => `${Math.round(x * 100)}%`;

/** `judge noise: relevance flipped 2 of 6 re-asks (33%), score sd 0.12, range 0.40 (3 trials)`, one line per re-asked assertion. */
export function judgeNoiseLines(noise: JudgeNoise): string[] {
  return noise.assertions.map(
    (a) =>
      `judge noise: ${a.turn !== undefined ? `turn ${a.turn} ` : ''}${a.name} flipped ${a.flips} of ${a.reasks} re-asks (${pct(a.flipRate)}), score sd ${a.scoreStddev.toFixed(2)}, range ${a.scoreRange.toFixed(2)} (${a.trials} trial${a.trials === 1 ? '' : 's'})`,
  );
}
