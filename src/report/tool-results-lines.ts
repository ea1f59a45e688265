import type { CaseResult } from '../core/results-schema.js';
import { linesByTrial } from './lines-by-trial.js';

/**
 * The case's `toolResults` entries a trial never reached (the tool was called fewer times, or never,
 * or the target did not offer it), each once, with the trials when the case ran more than one: such
 * an entry tested nothing. Tool names and call numbers only.
 */
export function toolResultsLines(r: CaseResult): string[] {
  return linesByTrial(r, (t) => (t.toolResults?.unused ?? []).map((u) => `toolResults: ${u.tool} call ${u.call} was never made, so its result was not served`));
}
