import { describe, it, expect } from 'vitest';
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
