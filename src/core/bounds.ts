import { z } from 'zod';

/**
 * The range of every numeric flag and config/eval field, in one place: the command-line parsers and
 * the zod schemas are both built from these, so a flag and its config key cannot disagree, and a
 * typo (an extra zero) is exit 2 at load instead of a run that misbehaves.
 */
export interface Bound {
  readonly min: number;
  readonly max: number;
  readonly integer: boolean;
  /** `min` itself is not allowed (a budget of 0 dollars). */
  readonly minExclusive?: boolean;
  /** Why the upper limit is what it is, said in the error. */
  readonly why?: string;
}

/** Node's setTimeout holds a signed 32-bit delay: a longer one fires after about 1 ms. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

const timerWhy = "Node's longest timer, about 24.8 days";

export const BOUNDS = {
  /** Timeouts of trials, targets, model calls and module loads. */
  timeoutMs: { min: 1, max: MAX_TIMER_MS, integer: true, why: timerWhy },
  /** Waits that may be zero (rate-limit waits and back-offs). */
  waitMs: { min: 0, max: MAX_TIMER_MS, integer: true, why: timerWhy },
  /** Trials per case (flag, config, suite and case). */
  repeat: { min: 1, max: 10_000, integer: true },
  /** Trials, judgments or calls in flight at once. */
  concurrency: { min: 1, max: 1_000, integer: true },
  /** Counts of at least 1 (--max-failures, --limit, --sample, cache entries, output sizes, steps, tokens). */
  count: { min: 1, max: 1_000_000_000, integer: true },
  /** Counts that may be 0 (--seed, --max-regressions, keepRuns). */
  countOrZero: { min: 0, max: 1_000_000_000, integer: true },
  /** Fractions: pass rates, thresholds, epsilons, alphas. */
  fraction: { min: 0, max: 1, integer: false },
  /** Dollar budgets (--max-cost, maxCostUsd). */
  usd: { min: 0, minExclusive: true, max: 1_000_000, integer: false },
  /** The cap on a run's trials (config `maxTrials`). */
  maxTrials: { min: 1, max: 1_000_000_000, integer: true },
  /** The heap of an isolated function target's worker (`maxHeapMb`, MB): room for Node itself below, a 64 GB ceiling above. */
  heapMb: { min: 16, max: 65_536, integer: true },
} as const satisfies Record<string, Bound>;

/** The default cap on a run's trials (cases × repeat, each matrix value counted): above it a run is exit 2 before it starts. */
export const DEFAULT_MAX_TRIALS = 1_000_000;

/** The heap cap of an isolated function target's worker when its `maxHeapMb` gives none (MB). */
export const DEFAULT_ISOLATE_HEAP_MB = 1024;

/**
 * 1,000,000 as toLocaleString('en-US') writes it, without the call: its first use loads ICU's
 * number formats (~30–80 ms), and the schemas built at start-up describe every bound.
 */
const shown = (n: number) => (Number.isSafeInteger(n) ? String(n).replace(/\B(?=(\d{3})+$)/g, ',') : n.toLocaleString('en-US'));

/** "a whole number from 1 to 2,147,483,647", as the errors and the README say it. */
export function describeBound(b: Bound): string {
  const kind = b.integer ? 'a whole number' : 'a number';
  const low = b.minExclusive ? `above ${shown(b.min)}` : `from ${shown(b.min)}`;
  return `${kind} ${low} ${b.minExclusive ? 'up to' : 'to'} ${shown(b.max)}${b.why ? ` (${b.why})` : ''}`;
}

/** Whether `n` is inside the bound. */
export function withinBound(b: Bound, n: number): boolean {
  if (!Number.isFinite(n) || (b.integer && !Number.isInteger(n))) return false;
  return (b.minExclusive ? n > b.min : n >= b.min) && n <= b.max;
}

/** A zod number in the bound (kept as plain min/max checks, so the generated JSON schemas carry the range). */
export function boundedNumber(b: Bound): z.ZodNumber {
  const message = `expected ${describeBound(b)}`;
  // A required field left out says so, rather than only what it expects.
  let s = z.number({ error: (issue) => (issue.input === undefined ? `required: ${message}` : message) });
  if (b.integer) s = s.int({ error: message });
  s = b.minExclusive ? s.gt(b.min, { error: message }) : s.min(b.min, { error: message });
  return s.max(b.max, { error: message });
}
