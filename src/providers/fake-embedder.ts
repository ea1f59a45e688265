/**
 * The offline embedding model (`fake`): deterministic, no call, no cost. A text becomes a hashed bag
 * of its normalized word stems (lower case, accents dropped, common function words left out, a few
 * English suffixes cut) counted into FAKE_DIMENSIONS slots. Two texts that share their content words
 * (a paraphrase: "the meeting moved to Friday" / "we are moving the meeting to Friday") point the
 * same way and score high; texts with no content word in common score near 0. It measures shared
 * words, not meaning: for tests and dry runs, never a stand-in for a real model's judgment.
 */

export const FAKE_DIMENSIONS = 256;

const STOP_WORDS = new Set(
  'a an and are as at be been but by can do does for from had has have he her his i if in into is it its me my no not of on or our she so that the their them they this to was we were will with you your'.split(
    ' ',
  ),
);

/** A light stemmer: `moved`, `moving`, `moves` and `move` all become `mov`, `meetings` and `meeting` both `meet`. */
export function fakeStem(word: string): string {
  const cut = (w: string, suffixes: string[]) => {
    const suffix = suffixes.find((x) => w.endsWith(x) && w.length - x.length >= 3);
    return suffix ? w.slice(0, -suffix.length) + (suffix === 'ies' || suffix === 'ied' ? 'y' : '') : w;
  };
  // The plural first, then one verb or adverb ending.
  const w = cut(cut(word, ['ies', 'es', 's']), ['ingly', 'edly', 'ing', 'ied', 'ed', 'ly']);
  return w.length > 3 && w.endsWith('e') ? w.slice(0, -1) : w;
}

/** The content-word stems of a text, in order. */
export function fakeStems(text: string): string[] {
  const words =
    text
      .normalize('NFKD')
      .replace(/\p{M}/gu, '')
      .toLowerCase()
      .match(/[\p{L}\p{N}]+/gu) ?? [];
  return words.filter((w) => !STOP_WORDS.has(w)).map(fakeStem);
}

/** FNV-1a, 32 bits: a stable slot for a stem on every machine. */
function slotOf(stem: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < stem.length; i++) {
    h ^= stem.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0) % FAKE_DIMENSIONS;
}

export function fakeEmbedding(text: string): number[] {
  const vector = new Array<number>(FAKE_DIMENSIONS).fill(0);
  for (const stem of fakeStems(text)) vector[slotOf(stem)]! += 1;
  return vector;
}
