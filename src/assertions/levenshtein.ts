/**
 * Edit distance over code points (so an emoji is one edit, not two), with two rolling rows:
 * memory is O(min(a, b)) because the shorter string indexes the rows.
 */
export function levenshtein(a: string, b: string): number {
  let long = [...a];
  let short = [...b];
  if (short.length > long.length) [long, short] = [short, long];
  if (short.length === 0) return long.length;
  let prev = Array.from({ length: short.length + 1 }, (_, j) => j);
  let curr = new Array<number>(short.length + 1).fill(0);
  for (let i = 1; i <= long.length; i++) {
    curr[0] = i;
    for (let j = 1; j <= short.length; j++) {
      const cost = long[i - 1] === short[j - 1] ? 0 : 1;
      curr[j] = Math.min(prev[j]! + 1, curr[j - 1]! + 1, prev[j - 1]! + cost);
    }
    [prev, curr] = [curr, prev];
  }
  return prev[short.length]!;
}
