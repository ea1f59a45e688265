// The edit between two runs' tool-call name sequences (Before and after): which calls the later run
// kept, inserted, dropped or moved. Pure, with no DOM and no import, so vitest tests it directly.

/**
 * One step of the edit, in the merged order of both sequences: `kept` (in both, same relative order),
 * `inserted` (only after), `dropped` (only before), `moved-from` / `moved-to` (a call of that name
 * left its place before and is found elsewhere after: the two ends of one reordered call).
 */
export interface ToolOp {
  op: 'kept' | 'inserted' | 'dropped' | 'moved-from' | 'moved-to';
  name: string;
}

export interface ToolEdit {
  ops: ToolOp[];
  inserted: number;
  dropped: number;
  /** Calls reordered: each counted once (its moved-from and moved-to are one call). */
  moved: number;
}

/** Over this many cells the LCS table is not built: every call that differs counts as dropped and inserted. */
const MAX_CELLS = 4_000_000;

/**
 * The edit from `before` to `after`: a longest common subsequence keeps what stayed in order; of the
 * rest, a dropped and an inserted call of the same name (paired first to first) are one reordered
 * call, the others are dropped or inserted.
 */
export function toolEdit(before: readonly string[], after: readonly string[]): ToolEdit {
  const aligned = align(before, after);
  // Pair the unmatched calls by name, in order: a dropped 'x' and an inserted 'x' are one moved call.
  const dropped: Record<string, number[]> = {};
  aligned.forEach((s, k) => {
    if (s.op === 'dropped') (dropped[s.name] = dropped[s.name] || []).push(k);
  });
  let moved = 0;
  aligned.forEach((s) => {
    if (s.op !== 'inserted') return;
    const from = (dropped[s.name] || []).shift();
    if (from === undefined) return;
    (aligned[from] as ToolOp).op = 'moved-from';
    s.op = 'moved-to';
    moved++;
  });
  const count = (op: ToolOp['op']): number => aligned.filter((s) => s.op === op).length;
  return { ops: aligned, inserted: count('inserted'), dropped: count('dropped'), moved };
}

/** The two sequences merged along an LCS: kept, dropped (before only) and inserted (after only), in order. */
function align(a: readonly string[], b: readonly string[]): ToolOp[] {
  const n = a.length;
  const m = b.length;
  if ((n + 1) * (m + 1) > MAX_CELLS) return a.map((name): ToolOp => ({ op: 'dropped', name })).concat(b.map((name): ToolOp => ({ op: 'inserted', name })));
  // lcs[i][j]: the LCS length of a[i..] and b[j..], one flat row-major table.
  const w = m + 1;
  const lcs = new Uint32Array((n + 1) * w);
  for (let i = n - 1; i >= 0; i--)
    for (let j = m - 1; j >= 0; j--) lcs[i * w + j] = a[i] === b[j] ? (lcs[(i + 1) * w + j + 1] as number) + 1 : Math.max(lcs[(i + 1) * w + j] as number, lcs[i * w + j + 1] as number);
  const out: ToolOp[] = [];
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (a[i] === b[j]) {
      out.push({ op: 'kept', name: a[i] as string });
      i++;
      j++;
    } else if ((lcs[(i + 1) * w + j] as number) >= (lcs[i * w + j + 1] as number)) out.push({ op: 'dropped', name: a[i++] as string });
    else out.push({ op: 'inserted', name: b[j++] as string });
  }
  while (i < n) out.push({ op: 'dropped', name: a[i++] as string });
  while (j < m) out.push({ op: 'inserted', name: b[j++] as string });
  return out;
}
