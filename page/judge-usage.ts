// The judge's usage in words, its cache included. A judgment answered from the judge cache costs
// nothing and is recorded with zero usage, `judge.cached` and `judge.savedTokens` (what the call
// would have used, input and output together), so a run judged wholly from cache would read
// "0 calls, $0.0000" with no word of why: these lines say how many judgments came from the cache.
// No saved cost is shown: savedTokens does not split input from output tokens, which are priced
// apart, so no honest dollar figure can be made from what the results record.
import { usageLine } from './format';
import type { Assertion, Usage } from './types';

/** Judged assertions that were asked (from the cache or not), those from the cache, and the tokens they saved. */
export interface JudgeTally {
  judgments: number;
  cached: number;
  savedTokens: number;
}

export function emptyTally(): JudgeTally {
  return { judgments: 0, cached: 0, savedTokens: 0 };
}

/** Adds a trial's assertions to t (an assertion with a judge record was asked of a judge). */
export function tallyJudgments(t: JudgeTally, assertions: Assertion[]): JudgeTally {
  assertions.forEach((a) => {
    const j = a.judge;
    if (!j) return;
    t.judgments += 1;
    if (j.cached) {
      t.cached += 1;
      t.savedTokens += j.savedTokens || 0;
    }
  });
  return t;
}

/** "12 of 12 judgments from cache (3,456 tokens not spent again)". */
export function cacheLine(t: JudgeTally): string {
  return t.cached + ' of ' + t.judgments + ' judgment' + (t.judgments === 1 ? '' : 's') + ' from cache (' + t.savedTokens.toLocaleString('en-US') + ' tokens not spent again)';
}

/** The judge's usage with its cache: no bare zeros when the cache answered or no judge was asked. */
export function judgeUsageLine(u: Usage, t: JudgeTally): string {
  if (t.cached && !u.calls) return cacheLine(t) + '; no judge call made';
  if (t.cached) return usageLine(u) + '; ' + cacheLine(t);
  if (!t.judgments && !u.calls) return 'no judge asked';
  return usageLine(u);
}
