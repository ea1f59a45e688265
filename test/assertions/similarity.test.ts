import { describe, it, expect } from 'vitest';
import { levenshtein } from '../../src/assertions/levenshtein.js';
import { similarity } from '../../src/assertions/similarity.js';
import { check, makeCtx } from './helpers.js';

describe('levenshtein', () => {
  it('computes classic distances in either argument order', () => {
    expect(levenshtein('kitten', 'sitting')).toBe(3);
    expect(levenshtein('sitting', 'kitten')).toBe(3);
    expect(levenshtein('', 'abc')).toBe(3);
    expect(levenshtein('flaw', 'lawn')).toBe(2);
    expect(levenshtein('same', 'same')).toBe(0);
  });
  it('counts an emoji as one character', () => {
    expect(levenshtein('a👍', 'a👎')).toBe(1);
  });
});

describe('similarity', () => {
  it('is soft by default', () => {
    expect(similarity.defaultSeverity).toBe('soft');
  });
  it('scores 1 for identical text, and for two empty strings', () => {
    expect(check({ type: 'similarity', value: 'refund issued' }, makeCtx({ reply: 'refund issued' }))).toEqual({
      score: 1,
      message: 'similarity to "refund issued": 1.00 (edit distance 0 over 13 chars)',
    });
    expect(check({ type: 'similarity', value: '' }, makeCtx({ reply: '' })).score).toBe(1);
  });
  it('scores 1 - distance / longer length', () => {
    expect(check({ type: 'similarity', value: 'kitten' }, makeCtx({ reply: 'sitting' }))).toEqual({
      score: 1 - 3 / 7,
      message: 'similarity to "kitten": 0.57 (edit distance 3 over 7 chars)',
    });
    expect(check({ type: 'similarity', value: 'abc' }, makeCtx({ reply: 'xyz' })).score).toBe(0);
  });
});
