/**
 * The word diff of the report's Before and after (page/word-diff.ts, jsdiff's diffWords):
 * the parts of two replies, and no diff at all past MAX_EDIT edits (a bound on work, not on time).
 */
import { describe, expect, it } from 'vitest';
import { MAX_EDIT, wordDiff } from '../../page/word-diff.js';

describe('wordDiff', () => {
  it('splits two replies into common text, the baseline\u2019s words and this run\u2019s', () => {
    expect(wordDiff('The capital is Paris, a large city.', 'The capital is Lyon, a small city.')).toEqual([
      { kind: 'same', text: 'The capital is ' },
      { kind: 'del', text: 'Paris' },
      { kind: 'ins', text: 'Lyon' },
      { kind: 'same', text: ', a ' },
      { kind: 'del', text: 'large' },
      { kind: 'ins', text: 'small' },
      { kind: 'same', text: ' city.' },
    ]);
  });

  it('gives up on replies more than MAX_EDIT edits apart', () => {
    const words = (prefix: string) => Array.from({ length: MAX_EDIT + 1 }, (_, i) => `${prefix}${i}`).join(' ');
    expect(wordDiff(words('a'), words('b'))).toBeNull();
    expect(wordDiff(words('a'), words('a'))).toEqual([{ kind: 'same', text: words('a') }]);
  });
});
