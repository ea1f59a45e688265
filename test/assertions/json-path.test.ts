import { describe, it, expect } from 'vitest';
import { parsePath, readPath } from '../../src/assertions/json-path.js';
import { deepEqual, matchesSubset } from '../../src/assertions/json-value.js';

describe('parsePath', () => {
  it('parses dotted, bracket and quoted segments', () => {
    expect(parsePath('$.order.items[0].sku')).toEqual({ ok: true, segments: ['order', 'items', 0, 'sku'] });
    expect(parsePath('order.items[12]')).toEqual({ ok: true, segments: ['order', 'items', 12] });
    expect(parsePath(`$["a.b"]['c d'][1]`)).toEqual({ ok: true, segments: ['a.b', 'c d', 1] });
    expect(parsePath('$')).toEqual({ ok: true, segments: [] });
    expect(parsePath('[0].id')).toEqual({ ok: true, segments: [0, 'id'] });
  });
  it('rejects malformed paths with a position', () => {
    expect(parsePath('$.a[')).toEqual({ ok: false, error: 'expected ".key", "[index]" or "[\\"key\\"]" at char 4 of "$.a["' });
    expect(parsePath('a.').ok).toBe(false);
    expect(parsePath('$.a[-1]').ok).toBe(false);
  });
});

describe('readPath', () => {
  it('reads nested values and reports the failing step', () => {
    const doc = { a: [{ b: 1 }] };
    expect(readPath(doc, ['a', 0, 'b'])).toEqual({ found: true, value: 1 });
    expect(readPath(doc, [])).toEqual({ found: true, value: doc });
    expect(readPath(doc, ['a', 'b'])).toEqual({ found: false, missing: '$.a is not an object' });
    expect(readPath(doc, ['x', 'y'])).toEqual({ found: false, missing: '$.x does not exist' });
  });
});

describe('deepEqual / matchesSubset', () => {
  it('deepEqual ignores key order but not array order or extra keys', () => {
    expect(deepEqual({ a: 1, b: [1, 2] }, { b: [1, 2], a: 1 })).toBe(true);
    expect(deepEqual([1, 2], [2, 1])).toBe(false);
    expect(deepEqual({ a: 1 }, { a: 1, b: undefined })).toBe(false);
    expect(deepEqual(1, '1')).toBe(false);
    expect(deepEqual(null, {})).toBe(false);
  });
  it('matchesSubset recurses into objects only', () => {
    expect(matchesSubset({ a: { b: 1, c: 2 }, d: 3 }, { a: { b: 1 } })).toBe(true);
    expect(matchesSubset({ a: { b: 1 } }, { a: { b: 2 } })).toBe(false);
    expect(matchesSubset({ a: [1, 2] }, { a: [1] })).toBe(false);
    expect(matchesSubset('text', { a: 1 })).toBe(false);
    expect(matchesSubset(undefined, {})).toBe(true);
  });
});
