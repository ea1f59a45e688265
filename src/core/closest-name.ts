import { distance } from 'fastest-levenshtein';

/**
 * The known name a misspelt one most likely meant (`concurency` → `concurrency`, `modle` → `model`),
 * or undefined when none is close: about a third of the name's letters at most may differ (two
 * neighbours swapped count as one), so an unrelated key gets no guess.
 */
export function closestName(name: string, known: Iterable<string>): string | undefined {
  const lower = name.toLowerCase();
  const limit = Math.round(name.length / 3);
  let best: { name: string; d: number } | undefined;
  for (const candidate of known) {
    const other = candidate.toLowerCase();
    const d = swapsInto(lower, other) ? 1 : distance(lower, other);
    if (d <= limit && (!best || d < best.d)) best = { name: candidate, d };
  }
  return best?.name;
}

/** Whether swapping one pair of neighbouring letters of `a` gives `b` (`rnu` → `run`). */
function swapsInto(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  const diff = [...a].flatMap((ch, i) => (ch === b[i] ? [] : [i]));
  return diff.length === 2 && diff[1] === diff[0]! + 1 && a[diff[0]!] === b[diff[1]] && a[diff[1]] === b[diff[0]!];
}

/** `unknown field "asert" (did you mean "assert"?)`: each unknown key, with the known field it is nearest to, if any. */
export function unknownFieldsMessage(keys: readonly string[], known: readonly string[]): string {
  const named = keys.map((k) => {
    const near = closestName(k, known);
    return near ? `${JSON.stringify(k)} (did you mean ${JSON.stringify(near)}?)` : JSON.stringify(k);
  });
  return `unknown field${keys.length > 1 ? 's' : ''} ${named.join(', ')}`;
}
