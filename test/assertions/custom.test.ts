import { afterEach, describe, it, expect, vi } from 'vitest';
import { customAssertionSchema, runCustom, type CustomFn } from '../../src/assertions/custom.js';
import { makeCtx } from './helpers.js';

const ctx = makeCtx({ reply: 'Refund issued for A1049.' });
const spec = (fn: CustomFn) => customAssertionSchema.parse({ type: 'custom', name: 'mentions-order', fn });

describe('custom', () => {
  it('maps a boolean to 1 or 0', async () => {
    expect(
      await runCustom(
        spec((c) => c.reply.includes('A1049')),
        ctx,
      ),
    ).toEqual({ score: 1, message: 'custom mentions-order: returned true' });
    expect(
      await runCustom(
        spec((c) => c.reply.includes('B2')),
        ctx,
      ),
    ).toEqual({ score: 0, message: 'custom mentions-order: returned false' });
  });
  it('maps { pass } without a score to 1 or 0 and keeps the reason', async () => {
    expect(
      await runCustom(
        spec(() => ({ pass: true })),
        ctx,
      ),
    ).toEqual({ score: 1, message: 'custom mentions-order: returned pass true, score 1' });
    expect(
      await runCustom(
        spec(() => ({ pass: false, reason: 'no order id' })),
        ctx,
      ),
    ).toEqual({
      score: 0,
      message: 'custom mentions-order: returned pass false, score 0 (no order id)',
      reason: 'no order id',
    });
  });
  it('uses a given score', async () => {
    expect(
      (
        await runCustom(
          spec(() => ({ pass: true, score: 0.4 })),
          ctx,
        )
      ).score,
    ).toBe(0.4);
  });
  it('awaits an async function', async () => {
    expect(
      (
        await runCustom(
          spec(async () => Promise.resolve(true)),
          ctx,
        )
      ).score,
    ).toBe(1);
  });
  it('turns a throw (sync or async) into score 0', async () => {
    expect(
      await runCustom(
        spec(() => {
          throw new Error('boom');
        }),
        ctx,
      ),
    ).toEqual({ score: 0, message: 'custom mentions-order threw: boom' });
    expect(
      await runCustom(
        spec(async () => Promise.reject(new Error('late boom'))),
        ctx,
      ),
    ).toEqual({
      score: 0,
      message: 'custom mentions-order threw: late boom',
    });
  });
  it('scores malformed answers 0 and says what came back', async () => {
    const bad = (v: unknown) => spec(() => v as boolean);
    expect(await runCustom(bad(undefined), ctx)).toEqual({
      score: 0,
      message: 'custom mentions-order: returned undefined (expected a boolean or { pass, score?, reason? })',
    });
    expect((await runCustom(bad({ ok: true }), ctx)).score).toBe(0);
    expect(await runCustom(bad({ pass: true, score: 1.5 }), ctx)).toEqual({
      score: 0,
      message: 'custom mentions-order: returned score 1.5 (expected a number in [0, 1])',
    });
  });
  it('requires a function and a name, and rejects unknown fields', () => {
    const r = customAssertionSchema.safeParse({ type: 'custom', name: 'x', fn: 'return true' });
    expect(r.success).toBe(false);
    expect(r.error?.issues[0]?.message).toBe('custom fn must be a function');
    expect(customAssertionSchema.safeParse({ type: 'custom', fn: () => true }).success).toBe(false);
    expect(customAssertionSchema.safeParse({ type: 'custom', name: 'x', fn: () => true, extra: 1 }).success).toBe(false);
  });
});

describe('custom, bounded', () => {
  afterEach(() => void vi.useRealTimers());
  const never = () => spec(() => new Promise<boolean>(() => {}));

  it('fails by its timeout, naming itself, when it never settles', async () => {
    vi.useFakeTimers();
    let outcome: Awaited<ReturnType<typeof runCustom>> | undefined;
    void runCustom(never(), ctx, { ms: 3000, signal: new AbortController().signal }).then((o) => (outcome = o));
    await vi.advanceTimersByTimeAsync(2999);
    expect(outcome).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    expect(outcome).toEqual({ score: 0, message: "custom mentions-order: did not settle within 3000 ms (the case's timeoutMs)" });
  });

  it('stops waiting once the trial is cut off (the Ctrl-C grace ended)', async () => {
    const stop = new AbortController();
    const pending = runCustom(never(), ctx, { ms: 60_000, signal: stop.signal });
    stop.abort();
    expect(await pending).toEqual({ score: 0, message: 'custom mentions-order: interrupted before it settled' });
  });

  it('answers as before when it settles in time', async () => {
    expect(
      await runCustom(
        spec(async () => true),
        ctx,
        { ms: 3000, signal: new AbortController().signal },
      ),
    ).toEqual({ score: 1, message: 'custom mentions-order: returned true' });
  });
});
