/**
 * A schema built on first use (src/core/lazy-schema.ts): nothing is built until the schema is
 * used, it is built once, and it stands for the schema wherever one is used: parse results,
 * `instanceof`, inside other schemas, chained methods, and the JSON Schema generated from it.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { lazySchema, once } from '../../src/core/lazy-schema.js';

const build = () => z.object({ id: z.string().min(1), n: z.number().int().optional() }).strict();

describe('lazySchema', () => {
  it('builds on first use, once', () => {
    let builds = 0;
    const schema = lazySchema(() => {
      builds += 1;
      return build();
    });
    expect(builds).toBe(0);
    expect(schema.safeParse({ id: 'a' }).success).toBe(true);
    expect(schema.safeParse({ id: '' }).success).toBe(false);
    schema.parse({ id: 'b', n: 2 });
    expect(builds).toBe(1);
  });

  it('stands for the schema: the same results and issues, instanceof, inside other schemas, chained, as JSON Schema', () => {
    const lazy = lazySchema(build);
    const real = build();
    for (const input of [{ id: 'a' }, { id: 'a', n: 1.5 }, { id: 'a', extra: 1 }, 'x']) {
      expect(lazy.safeParse(input)).toEqual(real.safeParse(input));
    }
    expect(lazy).toBeInstanceOf(z.ZodObject);
    expect(z.array(lazy).safeParse([{ id: 'a' }, { id: '' }])).toEqual(z.array(real).safeParse([{ id: 'a' }, { id: '' }]));
    expect(lazy.optional().safeParse(undefined).success).toBe(true);
    expect(lazy.shape.id).toBeInstanceOf(z.ZodString);
    expect(z.toJSONSchema(lazy)).toEqual(z.toJSONSchema(real));
    const typed: z.infer<typeof lazy> = lazy.parse({ id: 'c' });
    expect(typed.id).toBe('c');
  });
});

describe('once', () => {
  it('runs its builder once and keeps the result, undefined included', () => {
    let runs = 0;
    const value = once(() => {
      runs += 1;
      return undefined;
    });
    expect([value(), value()]).toEqual([undefined, undefined]);
    expect(runs).toBe(1);
  });
});
