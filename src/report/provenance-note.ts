import type { RunProvenance } from '../core/results-schema.js';

/** Where a run's kept trials or chosen cases came from, in words (the terminal's header), or undefined for a run from scratch. */
export function provenanceNote(p: RunProvenance | undefined): string | undefined {
  if (p?.resumedFrom !== undefined) return `resumed from run ${p.resumedFrom}`;
  if (p?.retriedFrom !== undefined) return `errors retried from ${p.retriedFrom}`;
  if (p?.lastFailedFrom !== undefined) return `last failed in ${p.lastFailedFrom}`;
  return undefined;
}
