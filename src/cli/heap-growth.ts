import { createRequire } from 'node:module';
import type * as V8 from 'node:v8';

// Required, not imported: the first module bin/ loads, before the start chunk (core/builtin-require.ts
// says why); its own createRequire, so the bundle joins nothing of the chunk to it.
const v8 = createRequire(import.meta.url)('node:v8') as typeof V8;

/**
 * An eval run holds little live data (finished cases stream to disk) but promotes the objects of
 * every in-flight request to the old generation, where they die. With V8's default growth factor
 * the heap reached 4–6× its live size before a full collection (peak RSS 210–250 MB at 10,000
 * trials, live ~40 MB); growing at most 20% per collection keeps it near 160 MB at no measurable
 * CPU cost (bench/RESULTS.md).
 */
export const HEAP_GROWING_PERCENT = 20;

/**
 * Start-up (loading dist/, the config and the eval files) allocates fast and keeps much of it.
 * V8 grows the young generation 2× at a time, so a `run` scavenged ~10 times on its way to the
 * size it keeps for the rest of the run (V8's maximum, reached within the first second either
 * way). Growing 16× at a time gets there in two scavenges: fewer copies of what survives start-up,
 * ~70 ms less CPU before the first request at N=1,000 (median of 6 alternated runs, twice), total
 * CPU and peak RSS unchanged. The maximum itself stays V8's: capping it at 8 MB cost 13% more CPU.
 */
export const YOUNG_GROWTH_FACTOR = 16;

/** The V8 flag to set, or undefined when the user already chose one through node's options. */
function unlessGiven(name: string, value: number, execArgv: readonly string[], nodeOptions: string): string | undefined {
  const given = new RegExp(`^--${name.replaceAll('-', '[-_]')}\\b`);
  return [...execArgv, ...nodeOptions.split(/\s+/)].some((a) => given.test(a)) ? undefined : `--${name}=${value}`;
}

/** The flags to set: heap growth and the young generation's, each unless the user chose it through node's options. */
export function heapFlags(execArgv: readonly string[], nodeOptions = ''): string[] {
  return [unlessGiven('heap-growing-percent', HEAP_GROWING_PERCENT, execArgv, nodeOptions), unlessGiven('semi-space-growth-factor', YOUNG_GROWTH_FACTOR, execArgv, nodeOptions)].filter(
    (f) => f !== undefined,
  );
}

/** The flags `limitHeapGrowth` set in this process (V8 keys its code caches by the flags: code-cache.ts). */
const applied: string[] = [];

/** Applied by the CLI launcher before anything is loaded (both flags are read at each collection). */
export function limitHeapGrowth(): void {
  for (const flag of heapFlags(process.execArgv, process.env.NODE_OPTIONS)) {
    v8.setFlagsFromString(flag);
    applied.push(flag);
  }
}

/** What `limitHeapGrowth` set, in order (none when it did not run: a library use of agent-evals). */
export function appliedHeapFlags(): readonly string[] {
  return applied;
}
