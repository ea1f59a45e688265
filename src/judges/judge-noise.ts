import type { AssertionResult } from '../core/results-schema.js';
import { addUsage } from '../core/usage.js';
import type { Graded } from './graded.js';
import type { JudgeService } from './judge-service.js';

/**
 * Judge noise (`run --judge-noise K`): each judged assertion of a sampled trial is asked K more times
 * of a judge service with the cache off, so the re-asks are real calls; what they answered goes on the
 * assertion (`reasks`) and what they spent into the trial's judge usage and cost.
 *
 * The sample: the first NOISE_SAMPLE_TRIALS trials of each case (trial index below it), for every
 * judged assertion the judge scored on them; the same trials on every run, whatever the scheduling.
 * Re-asks are made one after another, live (never in a `--judge-batch`).
 */
export const NOISE_SAMPLE_TRIALS = 20;

export function withJudgeNoise<S extends JudgeService>(primary: S, reask: JudgeService, extra: number): S {
  return Object.assign(Object.create(primary) as S, {
    async judge(...[spec, ctx]: Parameters<JudgeService['judge']>) {
      const first = await primary.judge(spec, ctx);
      // A check's `.result()` read (live) is not sampled: the check already holds the first answer.
      if (first.kind !== 'scored' || ctx.trialIndex >= NOISE_SAMPLE_TRIALS || ctx.live) return first;
      const reasks = [];
      for (let i = 0; i < extra && !ctx.signal.aborted; i++) reasks.push(await reask.judge(spec, ctx));
      return { ...first, reasks };
    },
  });
}

/** The re-asks of an assertion, graded like its first answer: their statuses and scores on it, their spend in its usage. */
export function withReasks(graded: Graded, reasks: Graded[]): Graded {
  graded.result.reasks = reasks.map((r) => ({ status: r.result.status, score: r.result.score }));
  return { result: graded.result, usage: addUsage(graded.usage, ...reasks.map((r) => r.usage)) };
}

export type Reask = NonNullable<AssertionResult['reasks']>[number];
