/**
 * A TypeScript case's `check(t)` is user code under the case's `timeoutMs`, like a custom
 * assertion: one that never settles fails its trial naming the check, a Ctrl-C past the grace ends
 * the wait, and the check's clock stops while it waits on a `t.send()` turn (which has its own bound).
 * Fake timers: the deadlines are the test's to move.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { TrialResult } from '../../src/core/results-schema.js';
import type { JudgeService } from '../../src/judges/judge-service.js';
import { executeTrial } from '../../src/runner/loop/trial.js';
import type { PlannedCase } from '../../src/suite/plan.js';
import { functionTarget } from '../../src/targets/function-target.js';
import { makePlannedCase } from '../support/planned-case.js';

const noJudges: JudgeService = {
  judge() {
    throw new Error('no judge is asked here');
  },
};
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Starts one trial of a case with `check` and timeoutMs 300; its result lands in `done.result`. */
function start(check: PlannedCase['check'], opts: { signal?: AbortSignal; turnMs?: number } = {}) {
  const c = makePlannedCase({ check, timeoutMs: 300 }, { suite: 's', file: 's.eval.ts', input: 'hi' });
  // The function target answers at once, except a later turn, which takes `turnMs`.
  const target = functionTarget('agent', async (input: string, ctx: { turn: number }) => {
    if (ctx.turn > 1 && opts.turnMs) await sleep(opts.turnMs);
    return `re: ${input}`;
  });
  const done: { result?: TrialResult } = {};
  void executeTrial(c, 0, { target, judges: noJudges, pricing: { overrides: {}, warnUnpriced: () => {} }, skipJudgesOnGateFailure: true, signal: opts.signal ?? new AbortController().signal }).then(
    (r) => (done.result = r),
  );
  return done;
}

describe('check(t) under the case timeoutMs', () => {
  afterEach(() => void vi.useRealTimers());

  it('fails its trial naming the check when it never settles', async () => {
    vi.useFakeTimers();
    const done = start(() => new Promise(() => {}));
    await vi.advanceTimersByTimeAsync(299);
    expect(done.result).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    expect(done.result).toMatchObject({ verdict: 'failed', error: "check(): did not settle within 300 ms (the case's timeoutMs)", reply: 're: hi' });
  });

  it('stops waiting once the trial is cut off (the Ctrl-C grace ended)', async () => {
    const stop = new AbortController();
    let started = false;
    const done = start(
      () => {
        started = true;
        return new Promise(() => {});
      },
      { signal: stop.signal },
    );
    await vi.waitFor(() => expect(started).toBe(true));
    stop.abort();
    await vi.waitFor(() => expect(done.result).toMatchObject({ verdict: 'failed', error: 'check(): interrupted before it settled' }));
  });

  it("does not count the time a t.send() turn takes against the check's own", async () => {
    vi.useFakeTimers();
    // 200 ms of its own, a 250 ms turn, 50 ms more: 500 ms in all, 250 ms of them the check's.
    const done = start(
      async (t) => {
        const api = t as { send(m: string): Promise<string>; equals(v: string): unknown };
        await sleep(200);
        await api.send('again');
        await sleep(50);
        api.equals('re: again');
      },
      { turnMs: 250 },
    );
    await vi.advanceTimersByTimeAsync(500);
    expect(done.result).toMatchObject({ verdict: 'passed', reply: 're: again' });
    expect(done.result!.error).toBeUndefined();
  });

  it('a check that ran out of time cannot send a turn afterwards', async () => {
    vi.useFakeTimers();
    const sent: Array<Promise<unknown>> = [];
    const done = start(async (t) => {
      await sleep(400);
      sent.push((t as { send(m: string): Promise<string> }).send('late').catch((e: unknown) => e));
    });
    await vi.advanceTimersByTimeAsync(400);
    expect(done.result).toMatchObject({ verdict: 'failed', error: "check(): did not settle within 300 ms (the case's timeoutMs)" });
    expect(await sent[0]).toMatchObject({ message: 'check() has already ended (timed out or interrupted)' });
  });
});
