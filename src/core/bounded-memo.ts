/**
 * A memo of a pure function's results by key, for keys made of data (criteria, specs, model ids):
 * emptied when it holds `max` entries, so a run over many distinct keys keeps a bounded few.
 * Results are shared between callers and never mutated; a result is never undefined.
 */
export function boundedMemo<K, V extends NonNullable<unknown> | null>(max: number): (key: K, compute: () => V) => V {
  const kept = new Map<K, V>();
  return (key, compute) => {
    let value = kept.get(key);
    if (value === undefined) {
      value = compute();
      if (kept.size >= max) kept.clear();
      kept.set(key, value);
    }
    return value;
  };
}
