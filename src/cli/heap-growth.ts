import v8 from 'node:v8';

/**
 * An eval run holds little live data (finished cases stream to disk) but promotes the objects of
 * every in-flight request to the old generation, where they die. With V8's default growth factor
 * the heap reached 4–6× its live size before a full collection (peak RSS 210–250 MB at 10,000
 * trials, live ~40 MB); growing at most 20% per collection keeps it near 160 MB at no measurable
 * CPU cost (bench/RESULTS.md).
 */
export const HEAP_GROWING_PERCENT = 20;

/** The V8 flag to set, or undefined when the user already chose one through node's options. */
export function heapGrowthFlag(execArgv: readonly string[], nodeOptions = ''): string | undefined {
  const given = [...execArgv, ...nodeOptions.split(/\s+/)].some((a) => /^--heap[-_]growing[-_]percent\b/.test(a));
  return given ? undefined : `--heap-growing-percent=${HEAP_GROWING_PERCENT}`;
}

/** Applied by the CLI launcher before anything is loaded (the flag is read at each collection). */
export function limitHeapGrowth(): void {
  const flag = heapGrowthFlag(process.execArgv, process.env.NODE_OPTIONS);
  if (flag) v8.setFlagsFromString(flag);
}
