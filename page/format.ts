// Numbers as the page shows them.
import type { Usage } from './types';

export function pct(x: number): string {
  return (x * 100).toFixed(1) + '%';
}

export function usd(x: number | null | undefined): string {
  return x === null || x === undefined ? 'unknown' : '$' + x.toFixed(4);
}

export function dur(ms: number): string {
  return ms < 1000 ? Math.round(ms) + ' ms' : (ms / 1000).toFixed(2) + ' s';
}

export function size(n: number): string {
  return n.toLocaleString('en-US') + ' characters';
}

/** Calls, tokens and cost; "none reported" when nothing was (a function target that reports no usage), not a row of zeros. */
export function usageLine(u: Usage): string {
  if (!u.calls && !u.inputTokens && !u.outputTokens && !u.costUsd) return 'none reported';
  return u.calls + ' calls, ' + u.inputTokens + ' in / ' + u.outputTokens + ' out tokens' + (u.cachedInputTokens ? ', ' + u.cachedInputTokens + ' cached' : '') + ', ' + usd(u.costUsd);
}

/** `pass@3 0.533 (min 0.5)`: a passAt/passHat case's estimate, as the other reporters write it (core/reducer-note.ts; the page imports nothing outside itself). */
export function reducerText(r: { kind: string; k: number; min: number; trials: number; estimate?: number }): string {
  const name = 'pass' + (r.kind === 'passAt' ? '@' : '^') + r.k;
  return r.estimate === undefined ? name + ' not estimated (' + r.trials + ' of ' + r.k + ' trials ran)' : name + ' ' + r.estimate.toFixed(3) + ' (min ' + r.min + ')';
}
