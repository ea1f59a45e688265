/**
 * A PDF's page count from its page tree: the root `/Type /Pages` dictionary's `/Count`, which is the
 * largest `/Count` of any `/Pages` node. A PDF whose page tree sits in a compressed object stream
 * does not show it: undefined then, and the provider is left to count (its refusal names the limit).
 */
const PAGES_THEN_COUNT = /\/Type\s*\/Pages\b[^>]*?\/Count\s+(\d+)/g;
const COUNT_THEN_PAGES = /\/Count\s+(\d+)[^>]*?\/Type\s*\/Pages\b/g;

export function pdfPageCount(bytes: Buffer): number | undefined {
  // latin1 keeps one character per byte: the dictionaries are ASCII, binary streams stay inert.
  const text = bytes.toString('latin1');
  let most: number | undefined;
  for (const re of [PAGES_THEN_COUNT, COUNT_THEN_PAGES]) {
    for (const m of text.matchAll(re)) {
      const n = Number(m[1]);
      if (Number.isSafeInteger(n) && (most === undefined || n > most)) most = n;
    }
  }
  return most;
}
