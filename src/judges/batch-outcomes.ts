import { stableHash } from '../core/stable-hash.js';
import type { BatchItemResult, BatchStatus } from '../providers/batch-types.js';
import type { CompletionRequest } from '../providers/types.js';

/**
 * Each request's outcome in an ended batch's results, by its custom_id: its answer, or why it has none.
 * A custom_id answered twice takes neither answer, since nothing says which is the batch's. Pure: the
 * run that submitted the batch and a later collect (`rejudge --batch`) read a batch the same way.
 */
export function batchOutcomes(id: string, state: BatchStatus['state'], results: readonly BatchItemResult[]): (customId: string) => BatchItemResult {
  const byId = new Map<string, BatchItemResult>();
  const twice = new Set<string>();
  for (const r of results) {
    if (byId.has(r.customId)) twice.add(r.customId);
    else byId.set(r.customId, r);
  }
  return (customId) => {
    const r = byId.get(customId);
    if (twice.has(customId)) return { customId, ok: false, error: `judge batch ${id}: custom_id ${customId} appears more than once in the batch output; none of its answers was taken` };
    if (r?.ok) return r;
    return { customId, ok: false, error: r ? `judge batch ${id}: ${r.error}` : `judge batch ${id} ${state} without an answer to this request` };
  };
}

/**
 * What identifies a judge call across processes: its model and everything it sends (prompt, answer
 * schema, sampling, token limit). A re-judge of the same recorded trial with the same judge builds the
 * same request, so its digest finds the answer an uncollected batch holds for it.
 */
export function requestDigest(spec: string, request: CompletionRequest): string {
  const { signal: _signal, ...sent } = request;
  return stableHash({ spec, ...sent }, 32);
}
