import type { CaseResult } from '../core/results-schema.js';

/**
 * Where a case's trials left the tool tape (`run --replay-tools`): each divergence once, with the
 * trials it happened in when the case ran more than one. Tool names only (no arguments, no results).
 */
export function toolTapeLines(r: CaseResult): string[] {
  const trials = new Map<string, number[]>();
  for (const t of r.trials) {
    const message = t.toolTape?.diverged?.message;
    if (message) trials.set(message, [...(trials.get(message) ?? []), t.index + 1]);
  }
  return [...trials].map(([message, list]) => (r.planned > 1 ? `${message} (trial${list.length > 1 ? 's' : ''} ${list.join(', ')})` : message));
}
