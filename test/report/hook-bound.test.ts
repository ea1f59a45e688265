import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { HookBound, HookTimeoutError } from '../../src/report/hook-bound.js';
import { multiplexReporters, failureLine, type ReporterFailure } from '../../src/report/multiplexer.js';
import { namedReporter } from '../../src/report/user-reporter.js';
import type { EndInfo } from '../../src/report/reporter.js';

const never = () => new Promise<void>(() => {});

describe('HookBound', () => {
  beforeEach(() => void vi.useFakeTimers());
  afterEach(() => void vi.useRealTimers());

  it('returns what is not a promise as it is, and a promise that settles in time with its value', async () => {
    const bound = new HookBound(1000);
    expect(bound.settle(undefined)).toBeUndefined();
    await expect(bound.settle(Promise.resolve(7))).resolves.toBe(7);
  });

  it('rejects a hook still pending after timeoutMs, saying so', async () => {
    const bound = new HookBound(1000);
    const settled = vi.fn();
    const pending = bound.settle(never());
    pending.then(settled, settled);
    await vi.advanceTimersByTimeAsync(999);
    expect(settled).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    await expect(pending).rejects.toThrow(new HookTimeoutError('did not settle within 1000 ms (reporterTimeoutMs)'));
  });

  it('after an interrupt, gives every hook the grace in all: pending ones fail when it ends, later ones at once', async () => {
    const bound = new HookBound(60_000);
    const interrupt = new AbortController();
    bound.follow(interrupt.signal, 4000);
    const pending = bound.settle(never());
    pending.catch(() => {});
    interrupt.abort();
    await vi.advanceTimersByTimeAsync(4000);
    await expect(pending).rejects.toThrow('did not settle within the 4000 ms the run gives reporters after an interrupt');
    await expect(bound.settle(Promise.resolve())).rejects.toThrow('after an interrupt');
    // A hook that answers synchronously is not held back by anything.
    expect(bound.settle(3)).toBe(3);
  });

  it('stops following the interrupt once told to: a later abort starts no grace and cuts no hook', async () => {
    const bound = new HookBound(60_000);
    const interrupt = new AbortController();
    const unfollow = bound.follow(interrupt.signal, 4000);
    unfollow();
    interrupt.abort();
    expect(vi.getTimerCount()).toBe(0);
    await vi.advanceTimersByTimeAsync(4000);
    await expect(bound.settle(Promise.resolve(5))).resolves.toBe(5);
  });

  it('drops only the reporter whose hook timed out: the next one still gets onEnd', async () => {
    const bound = new HookBound(1000);
    const failures: ReporterFailure[] = [];
    const ended = vi.fn();
    const mux = multiplexReporters([namedReporter({ onEnd: never }, './slow.mjs', bound), { name: 'json', onEnd: ended }], (f) => failures.push(f));
    const done = mux.onEnd({} as EndInfo);
    await vi.advanceTimersByTimeAsync(1000);
    await done;
    expect(ended).toHaveBeenCalledOnce();
    expect(failures.map(failureLine)).toEqual(['reporter "./slow.mjs" failed in onEnd: did not settle within 1000 ms (reporterTimeoutMs); it gets no further events, so its output is incomplete']);
  });
});
