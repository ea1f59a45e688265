import type { CaseResult } from '../core/results-schema.js';
import { linesByTrial } from './lines-by-trial.js';

/**
 * Where a case's trials left the tool tape (`run --replay-tools`): each divergence once, with the
 * trials it happened in when the case ran more than one. Tool names only (no arguments, no results).
 */
export function toolTapeLines(r: CaseResult): string[] {
  return linesByTrial(r, (t) => (t.toolTape?.diverged ? [t.toolTape.diverged.message] : []));
}

/** The run's closing word on the tape: `5 calls replayed from the tape; 1 of 3 trials left it (its later calls ran live)`. */
export function toolTapeNote(t: { replayed: number; trials: number; diverged: number }): string {
  const calls = `${t.replayed} call${t.replayed === 1 ? '' : 's'} replayed from the tape`;
  return t.diverged ? `${calls}; ${t.diverged} of ${t.trials} trial${t.trials === 1 ? '' : 's'} left it (from there on their calls ran live)` : `${calls}; no trial left it`;
}
