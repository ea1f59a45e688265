/** `evaluate(...).onlyTools([...])`: the allowlist from a test file, as on a case in an eval file. */
import { describe, expect, it } from 'vitest';
import { evaluate } from '../../src/api/evaluate.js';
import type { TargetFunction } from '../../src/targets/function-target.js';

const agent: TargetFunction = async (_input, ctx) => {
  await ctx.tool('search', { q: 'x' }, async () => 'found');
  await ctx.tool('delete_account', { id: 1 }, async () => 'deleted');
  return 'done';
};

describe('evaluate().onlyTools', () => {
  it('fails the trial on a call outside the list and lists it in the summary', async () => {
    const r = await evaluate(agent, { name: 'cleanup' }).input('tidy up').onlyTools(['search']).expect({ type: 'contains', value: 'done' }).run();
    expect(r.verdict).toBe('failed');
    expect(r.trials[0]!.assertions[0]).toMatchObject({ kind: 'onlyTools', status: 'failed', evidence: ['delete_account'] });
    expect(r.summary.toolsOutsideAllowlist).toEqual([{ tool: 'delete_account', cases: ['evaluate/cleanup'] }]);
  });

  it('passes when every call is on the list', async () => {
    const r = await evaluate(agent).input('tidy up').onlyTools(['search', 'delete_account']).expect({ type: 'contains', value: 'done' }).run();
    expect(r.verdict).toBe('passed');
    expect(r.summary.toolsOutsideAllowlist).toBeUndefined();
  });
});
