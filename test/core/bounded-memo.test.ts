import { describe, expect, it } from 'vitest';
import { boundedMemo } from '../../src/core/bounded-memo.js';

describe('boundedMemo', () => {
  it('computes each key once, keeps null results, and empties itself at its bound', () => {
    const memo = boundedMemo<string, string | null>(2);
    let computed = 0;
    const get = (k: string) => memo(k, () => (computed++, k === 'none' ? null : k.toUpperCase()));
    expect([get('a'), get('a'), get('none'), get('none')]).toEqual(['A', 'A', null, null]);
    expect(computed).toBe(2);
    get('b'); // the third distinct key: the memo was full, so it starts again with only this one
    get('a');
    expect(computed).toBe(4);
    get('b');
    expect(computed).toBe(4);
  });
});
