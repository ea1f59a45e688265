import { describe, expect, it } from 'vitest';
import { trialOrder } from '../../src/runner/loop/run-cases.js';
import { caseVerdict } from '../../src/runner/loop/verdict.js';

const states = (repeats: number[]) => repeats.map((repeat, i) => ({ id: i, c: { repeat } }));

describe('trialOrder', () => {
  it("queues a window of cases round by round, so a case's later trials come after its first ones", () => {
    const order = trialOrder(states([2, 2, 2]), 2).map(([s, i]) => `${s.id}:${i}`);
    expect(order).toEqual(['0:0', '1:0', '0:1', '1:1', '2:0', '2:1']);
  });

  it('skips rounds a case does not have and queues every trial exactly once', () => {
    const order = trialOrder(states([1, 3, 2]), 8).map(([s, i]) => `${s.id}:${i}`);
    expect(order).toEqual(['0:0', '1:0', '2:0', '1:1', '2:1', '1:2']);
    expect(trialOrder(states([5, 5, 5, 5]), 3)).toHaveLength(20);
  });

  it('stretches a window so the adjacent variants of one case share it', () => {
    // Cases 0–1 are one case's two variants, 2–4 another's three: concurrency 1 still keeps each case's variants together.
    const groupOf = (s: { id: number }) => (s.id < 2 ? 'x' : 'y');
    const order = trialOrder(states([2, 2, 1, 1, 1]), 1, groupOf).map(([s, i]) => `${s.id}:${i}`);
    expect(order).toEqual(['0:0', '1:0', '0:1', '1:1', '2:0', '3:0', '4:0']);
  });
});

describe('caseVerdict of a case cut short', () => {
  it('is skipped, not scored, when only passed trials ran but too few to decide', () => {
    expect(caseVerdict(['passed', 'passed'], 4)).toBe('skipped');
  });

  it('stays failed or scored when a trial said so', () => {
    expect(caseVerdict(['passed', 'failed'], 4)).toBe('failed');
    expect(caseVerdict(['passed', 'scored'], 4)).toBe('scored');
    expect(caseVerdict([], 1)).toBe('skipped');
  });
});
