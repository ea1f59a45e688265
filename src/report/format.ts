import type { Usage } from '../core/usage.js';

export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)}ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)}s`;
  const m = Math.floor(ms / 60_000);
  return `${m}m${Math.round((ms % 60_000) / 1000)}s`;
}

/** `12,345`: as toLocaleString('en-US') writes a count, without loading the locale data (~50 ms, once) for it. */
export function formatTokens(n: number): string {
  if (!Number.isSafeInteger(n) || Object.is(n, -0)) return n.toLocaleString('en-US');
  return String(n).replace(THOUSANDS, ',');
}
const THOUSANDS = /\B(?=(\d{3})+(?!\d))/g;

/** `$0.0123`, or `$?` when a price is unknown (never shown as $0). */
export function formatCost(usd: number | null): string {
  if (usd === null) return '$?';
  if (usd === 0) return '$0';
  return usd < 0.01 ? `$${usd.toFixed(4)}` : `$${usd.toFixed(2)}`;
}

export function formatUsage(u: Usage): string {
  return `${formatTokens(u.inputTokens + u.outputTokens)} tok ${formatCost(u.costUsd)}`;
}

/** Said the same way in a judged result's message (judges/): so it lives in core. */
export { formatScore } from '../core/score-text.js';
