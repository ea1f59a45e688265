/** The offline embedder (`fake`): shared content words point the same way, other words do not; deterministic. */
import { describe, expect, it } from 'vitest';
import { cosineSimilarity } from '../../src/assertions/similar-to.js';
import { FAKE_DIMENSIONS, fakeEmbedding, fakeStems } from '../../src/providers/fake-embedder.js';

describe('fake embedder', () => {
  it('stems and drops function words, case and accents', () => {
    expect(fakeStems('We MOVED the meetings; moving, moves, café')).toEqual(['mov', 'meet', 'mov', 'mov', 'caf']);
  });

  it('a paraphrase sharing content words scores high, an unrelated text near 0, the same text 1', () => {
    const value = fakeEmbedding('The meeting has been moved to Friday afternoon.');
    expect(value).toHaveLength(FAKE_DIMENSIONS);
    expect(cosineSimilarity(value, fakeEmbedding('Your meeting is now on Friday afternoon: we moved it.'))).toBeGreaterThan(0.85);
    expect(cosineSimilarity(value, fakeEmbedding('Bananas are a good source of potassium.'))).toBeLessThan(0.2);
    expect(cosineSimilarity(value, fakeEmbedding('the MEETING has been moved to friday afternoon'))).toBe(1);
  });

  it('cosine: 0 for an empty vector, clamped to 0 for opposite ones, refuses different sizes', () => {
    expect(cosineSimilarity([0, 0], [1, 0])).toBe(0);
    expect(cosineSimilarity([1, 0], [-1, 0])).toBe(0);
    expect(() => cosineSimilarity([1], [1, 0])).toThrow(/different sizes/);
  });
});
