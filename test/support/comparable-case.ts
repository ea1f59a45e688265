/** A case as a results file holds it for a comparison (only the fields one reads; a real file has more). */
import type { ComparableCase } from '../../src/stats/compared-case.js';

/** `passed` of `run` trials in suite `demo`, the first ones passing; fingerprint `fp-<id>` unless `extra` says otherwise. */
export function comparableCase(id: string, passed: number, run: number, extra: Partial<ComparableCase> = {}): ComparableCase {
  return {
    suite: 'demo',
    id,
    verdict: passed === run ? 'passed' : 'failed',
    passed,
    score: { mean: run ? passed / run : 0 },
    trials: Array.from({ length: run }, (_, i) => ({ verdict: i < passed ? 'passed' : 'failed' })),
    fingerprint: `fp-${id}`,
    ...extra,
  };
}
