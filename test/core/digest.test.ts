/** Unit tests of src/core/digest.ts: shapes and digests, what the `safe` trace policy shows of a value. */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { conceal, digest, isDigest, shapeOf } from '../../src/core/digest.js';

describe('shapeOf', () => {
  it('describes values by type and size, never by content', () => {
    expect(shapeOf('hello')).toBe('<string:5>');
    expect(shapeOf('héllo👋')).toBe('<string:6>');
    expect(shapeOf(42)).toBe('<number>');
    expect(shapeOf(true)).toBe('<boolean>');
    expect(shapeOf(null)).toBeNull();
    expect(shapeOf([1, 2, 3])).toBe('<array:3>');
    expect(shapeOf({ user: 'alice', age: 7, tags: ['a'] })).toEqual({ user: '<string:5>', age: '<number>', tags: '<array:1>' });
  });

  it('caps the depth of nested objects', () => {
    const deep = { a: { b: { c: { d: { e: 'secret' } } } } };
    expect(shapeOf(deep)).toEqual({ a: { b: { c: '<object>' } } });
    expect(JSON.stringify(shapeOf(deep))).not.toContain('secret');
  });

  it('lists at most 20 keys and says how many more there are', () => {
    const wide = Object.fromEntries(Array.from({ length: 25 }, (_, i) => [`k${i}`, i]));
    const shape = shapeOf(wide) as Record<string, unknown>;
    expect(Object.keys(shape)).toHaveLength(21);
    expect(shape.k19).toBe('<number>');
    expect(shape.k20).toBeUndefined();
    expect(shape['…']).toBe('<5 more keys>');
  });
});

describe('digest', () => {
  const sha = (s: string) => `sha256:${createHash('sha256').update(s, 'utf8').digest('hex')}`;

  it('hashes a string as its UTF-8 bytes and counts bytes, not characters', () => {
    const d = digest('héllo');
    expect(d).toEqual({ hash: sha('héllo'), bytes: 6, preview: '<string:5>' });
    expect(d.hash).toMatch(/^sha256:[0-9a-f]{64}$/);
  });

  it('hashes other values as their JSON', () => {
    expect(digest({ a: 1 })).toEqual({ hash: sha('{"a":1}'), bytes: 7, preview: { a: '<number>' } });
    expect(digest([1, 2])).toEqual({ hash: sha('[1,2]'), bytes: 5, preview: '<array:2>' });
  });

  it('different values give different hashes; equal values the same', () => {
    expect(digest('a').hash).not.toBe(digest('b').hash);
    expect(digest({ x: [1] }).hash).toBe(digest({ x: [1] }).hash);
  });
});

describe('conceal', () => {
  it('digests a value once: a digest passed again stays the same digest', () => {
    const once = conceal({ orderId: 'ORD-1' });
    expect(isDigest(once)).toBe(true);
    expect(conceal(once)).toBe(once);
    expect(conceal(conceal('text'))).toEqual(digest('text'));
  });

  it('takes only a well-formed digest for one: a look-alike value is digested', () => {
    expect(isDigest({ hash: 'sha256:abc', bytes: 3, preview: null })).toBe(false);
    expect(isDigest({ hash: digest('x').hash, bytes: 1, preview: null, extra: 1 })).toBe(false);
    const lookAlike = { hash: 'ORD-1', bytes: 1, preview: 'x' };
    expect(conceal(lookAlike)).toEqual(digest(lookAlike));
  });
});
