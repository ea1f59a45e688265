import { distance } from 'fastest-levenshtein';

/**
 * The known name a misspelt one most likely meant (`concurency` → `concurrency`, `modle` → `model`),
 * or undefined when none is close: about a third of the name's letters at most may differ (two swapped
 * letters are two), so an unrelated key gets no guess.
 */
export function closestName(name: string, known: Iterable<string>): string | undefined {
  const lower = name.toLowerCase();
  const limit = Math.round(name.length / 3);
  let best: { name: string; d: number } | undefined;
  for (const candidate of known) {
    const d = distance(lower, candidate.toLowerCase());
    if (d <= limit && (!best || d < best.d)) best = { name: candidate, d };
  }
  return best?.name;
}
