/**
 * `run --watch` runs again and again in one process: each run's fault guard must not add another
 * pair of process listeners (past ten, Node prints a MaxListenersExceededWarning to the user's
 * terminal, and each pair keeps its finished run reachable). A fault after a later run began is
 * that run's to attribute, not an earlier one's.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { guardTargetFaults } from '../../src/runner/isolation/fault-guard.js';

// Taken just before each test, not when the file loads: test files share a worker, and a listener
// another file's run put on meanwhile is not this test's to count.
let before = { exception: process.listeners('uncaughtException'), rejection: process.listeners('unhandledRejection') };
beforeEach(() => {
  before = { exception: process.listeners('uncaughtException'), rejection: process.listeners('unhandledRejection') };
});

afterEach(() => {
  for (const l of process.listeners('uncaughtException')) if (!before.exception.includes(l)) process.off('uncaughtException', l);
  for (const l of process.listeners('unhandledRejection')) if (!before.rejection.includes(l)) process.off('unhandledRejection', l);
});

describe('the fault guard of runs that keep it on the process', () => {
  it('twelve runs in a row leave one pair of listeners, handing a fault to the latest run', () => {
    const warned: string[][] = [];
    for (let i = 0; i < 12; i++) {
      const mine: string[] = [];
      warned.push(mine);
      const end = guardTargetFaults((m) => mine.push(m));
      if (i < 11) end();
    }
    // At most one more than before: an earlier run in this test worker may have put the pair on already.
    const shared = (l: (...args: never[]) => unknown) => l.name.startsWith('toLatest');
    expect(process.listeners('uncaughtException').filter(shared)).toHaveLength(1);
    expect(process.listeners('unhandledRejection').filter(shared)).toHaveLength(1);
    expect(process.listenerCount('uncaughtException') - before.exception.length).toBeLessThanOrEqual(1);
    expect(process.listenerCount('unhandledRejection') - before.rejection.length).toBeLessThanOrEqual(1);
    const added = process.listeners('unhandledRejection').find(shared)!;
    added(new Error('late timer'), Promise.resolve());
    expect(warned[11]).toEqual(['unhandled rejection outside any running trial (ignored): late timer']);
    expect(warned.slice(0, 11).flat()).toEqual([]);
  });

  it('a run inside a test file (`remove`) takes its listeners off when it ends', () => {
    const end = guardTargetFaults(() => {}, { remove: true });
    expect(process.listenerCount('uncaughtException')).toBe(before.exception.length + 1);
    end();
    expect(process.listenerCount('uncaughtException')).toBe(before.exception.length);
  });
});
