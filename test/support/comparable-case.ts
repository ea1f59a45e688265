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

/** A case's judge fingerprint: one `judge` assertion judged by `openai:<model>`. */
export function judgedBy(model: string): NonNullable<ComparableCase['judgeFingerprint']> {
  const judge = { hash: `fp-${model}`, provider: 'openai', model, criterion: { type: 'judge', threshold: 0.5, trace: 'full', targetInstructions: false }, prompt: 'p1' };
  return { hash: `case-${model}`, assertions: [{ key: 'judge#1', name: 'judge', judge }] };
}
