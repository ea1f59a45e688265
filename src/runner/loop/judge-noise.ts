import type { AssertionResult, CaseResult, TrialResult } from '../../core/results-schema.js';
import { meanStd } from './verdict.js';
import { largest, smallest } from '../../core/extremes.js';

export type CaseJudgeNoise = NonNullable<CaseResult['judgeNoise']>;
type AssertionNoise = CaseJudgeNoise['assertions'][number];

/**
 * `--judge-noise`: per judged assertion of a case, over the sampled trials that were re-asked, the
 * flip rate (the share of re-asks whose pass/fail differs from the trial's first answer; re-asks that
 * erred are left out) and the score spread (within a trial, over its first answer and re-asks: the
 * mean population standard deviation, and the widest range). Pure.
 *
 * A case with a trial that missed through a judged assertion whose flip rate is above 0 is
 * `withinNoise`: asked again, the same judge might have passed that trial, so the case's miss, or a
 * regression its lost passes make against a baseline, says as much about the judge as about the agent.
 */
export function caseJudgeNoise(trials: readonly TrialResult[]): CaseJudgeNoise | undefined {
  const byAssertion = new Map<string, { name: string; turn?: number; asked: AssertionResult[]; missed: boolean }>();
  for (const t of trials) {
    for (const a of t.assertions) {
      if (!a.judge) continue;
      const key = `${a.turn ?? ''}\u0000${a.name}`;
      const entry = byAssertion.get(key) ?? { name: a.name, ...(a.turn !== undefined ? { turn: a.turn } : {}), asked: [], missed: false };
      byAssertion.set(key, entry);
      if (a.status === 'failed' || a.status === 'error') entry.missed = true;
      if (a.reasks) entry.asked.push(a);
    }
  }
  const assertions: Array<AssertionNoise & { missed: boolean }> = [];
  for (const { name, turn, asked, missed } of byAssertion.values()) {
    if (asked.length === 0) continue;
    let reasks = 0;
    let flips = 0;
    const spreads: number[] = [];
    let range = 0;
    for (const a of asked) {
      const answered = a.reasks!.filter((r) => r.status !== 'error');
      reasks += answered.length;
      flips += answered.filter((r) => (r.status === 'passed') !== (a.status === 'passed')).length;
      const scores = [a.score, ...answered.map((r) => r.score)];
      spreads.push(meanStd(scores).stddev);
      range = Math.max(range, largest(scores) - smallest(scores));
    }
    assertions.push({
      name,
      ...(turn !== undefined ? { turn } : {}),
      trials: asked.length,
      reasks,
      flips,
      flipRate: reasks ? flips / reasks : 0,
      scoreStddev: meanStd(spreads).mean,
      scoreRange: range,
      missed,
    });
  }
  if (assertions.length === 0) return undefined;
  return {
    assertions: assertions.map(({ missed: _missed, ...a }) => a),
    withinNoise: assertions.some((a) => a.missed && a.flipRate > 0),
  };
}
