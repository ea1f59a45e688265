/** `evaluate().passAt(k)` / `.passHat(k)`: the reducers from a test file, as on a case in an eval file. */
import { describe, expect, it } from 'vitest';
import { evaluate } from '../../src/api/evaluate.js';
import type { TargetFunction } from '../../src/targets/function-target.js';

/** Passes its first `passes` trials (by index), so the pass count is known. */
const passingFirst =
  (passes: number): TargetFunction =>
  (_input, ctx) =>
    ctx.trial.trial < passes ? 'pass' : 'fail';

const base = (passes: number) => evaluate(passingFirst(passes), { name: 'tries' }).input('q').expect({ type: 'equals', value: 'pass' }).repeat(10);

describe('evaluate().passAt / .passHat', () => {
  it('passAt(3) over 10 trials with 2 passes passes on pass@3 = 1 − C(8,3)/C(10,3) = 0.533; the same eval without it fails', async () => {
    const r = await base(2).passAt(3).run();
    expect(r.passed).toBe(true);
    expect(r.trials).toHaveLength(10);
    expect(r.reducer).toMatchObject({ kind: 'passAt', k: 3, min: 0.5, trials: 10 });
    expect(r.reducer!.estimate).toBeCloseTo(1 - 56 / 120, 12);
    expect(r.case).toMatchObject({ passed: 2, required: 2 });

    const plain = await base(2).run();
    expect(plain.passed).toBe(false);
    expect(plain.reducer).toBeUndefined();
  });

  it('passAt({ k: 3, min: 0.6 }) fails the same 2 of 10, with the estimate in its failure', async () => {
    const r = await base(2).passAt({ k: 3, min: 0.6 }).run();
    expect(r.passed).toBe(false);
    expect(r.case).toMatchObject({ verdict: 'failed', required: 3 });
    expect(() => r.assertPasses()).toThrow(/2 of 10 trials passed \(3 needed\)/);
  });

  it('passHat(3) over 8 of 10 is C(8,3)/C(10,3) = 0.467: fails at min 0.5, passes at min 0.4', async () => {
    const strict = await base(8).passHat(3).run();
    expect(strict.passed).toBe(false);
    expect(strict.reducer!.estimate).toBeCloseTo(56 / 120, 12);
    const lenient = await base(8).passHat({ k: 3, min: 0.4 }).run();
    expect(lenient.passed).toBe(true);
    expect(lenient.reducer).toMatchObject({ kind: 'passHat', k: 3, min: 0.4 });
  });

  it('the last of passAt / passHat wins, and a base eval is not changed by a derived one', async () => {
    const at = base(8).passAt(3);
    const hat = at.passHat(3);
    expect((await hat.run()).reducer).toMatchObject({ kind: 'passHat' });
    expect((await at.run()).reducer).toMatchObject({ kind: 'passAt' });
  });

  it('fewer trials than k is a user error naming passAt', async () => {
    await expect(base(2).repeat(2).passAt(3).run()).rejects.toThrow('evaluate(): passAt: 3 needs at least 3 trials to estimate from, but this case runs 2 (repeat)');
  });
});
