/** The end of a run as named steps: each one runs, in order, whatever the ones before it did. */
import { describe, expect, it } from 'vitest';
import { runTeardown, stepFailureLine } from '../../src/runner/loop/teardown.js';

describe('runTeardown', () => {
  it('runs every step after a failing one and returns the failures by name', async () => {
    const ran: string[] = [];
    const failed = await runTeardown([
      { name: 'judge cache', output: false, run: () => void ran.push('cache') },
      {
        name: 'reporters',
        output: true,
        run: async () => {
          ran.push('reporters');
          throw new Error('no space');
        },
      },
      { name: 'guard', output: false, run: () => void ran.push('guard') },
    ]);
    expect(ran).toEqual(['cache', 'reporters', 'guard']);
    expect(failed.map(stepFailureLine)).toEqual(['teardown step "reporters" failed: no space']);
  });
});
