import { distance } from 'fastest-levenshtein';

/**
 * The known name a misspelt one most likely meant (`concurency` → `concurrency`, `maxsteps` →
 * `maxSteps`), or undefined when none is close: at most a third of the name's letters differ, so
 * an unrelated key gets no guess.
 */
export function closestName(name: string, known: Iterable<string>): string | undefined {
  const lower = name.toLowerCase();
  const limit = Math.floor(name.length / 3);
  let best: { name: string; d: number } | undefined;
  for (const candidate of known) {
    const d = distance(lower, candidate.toLowerCase());
    if (d <= limit && (!best || d < best.d)) best = { name: candidate, d };
  }
  return best?.name;
}
