import type { CaseResult } from '../core/results-schema.js';

/**
 * The case's `toolResults` entries a trial never reached (the tool was called fewer times, or never,
 * or the target did not offer it), each once, with the trials when the case ran more than one: such
 * an entry tested nothing. Tool names and call numbers only.
 */
export function toolResultsLines(r: CaseResult): string[] {
  const trials = new Map<string, number[]>();
  for (const t of r.trials) {
    for (const u of t.toolResults?.unused ?? []) {
      const line = `toolResults: ${u.tool} call ${u.call} was never made, so its result was not served`;
      trials.set(line, [...(trials.get(line) ?? []), t.index + 1]);
    }
  }
  return [...trials].map(([line, list]) => (r.planned > 1 ? `${line} (trial${list.length > 1 ? 's' : ''} ${list.join(', ')})` : line));
}
