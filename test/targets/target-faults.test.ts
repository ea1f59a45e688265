/**
 * A fault (an uncaught exception, an unhandled rejection) is pinned on the function-target calls
 * running when it happens. A call its trial gave up on (a timeout, Ctrl-C) may never settle: it must
 * not take faults for the rest of the process, where they would be swallowed instead of said.
 */
import { describe, expect, it } from 'vitest';
import { attributeFault, runAttributed } from '../../src/targets/target-faults.js';

describe('attributeFault', () => {
  it('pins a fault on a running call; once its trial is aborted, the call takes none', async () => {
    const ac = new AbortController();
    // A target that never settles (its trial timed out while it waited on something).
    const call = runAttributed('stuck-target-faults-test', () => new Promise<never>(() => {}), ac.signal);
    call.catch(() => {});
    expect(attributeFault(new Error('while running'), 'unhandled rejection')).toBeGreaterThanOrEqual(1);
    await expect(call).rejects.toThrow('unhandled rejection in target "stuck-target-faults-test"');

    const ac2 = new AbortController();
    const abandoned = runAttributed('stuck-target-faults-test', () => new Promise<never>(() => {}), ac2.signal);
    abandoned.catch(() => {});
    ac2.abort();
    expect(attributeFault(new Error('after the trial ended'), 'unhandled rejection')).toBe(0);
  });
});
