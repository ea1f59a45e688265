import { cosineSimilarity } from '../assertions/similar-to.js';

/** `--dedupe` when not given: cosine similarity at which two inputs count as one (docs/guide/generating-cases.md). */
export const DEFAULT_DEDUPE = 0.9;

/** What the near-duplicate pass dropped: each new input's index, and what it was too close to. */
export interface NearDuplicate {
  index: number;
  /** The kept input it repeats: a new one's index, or an existing case's. */
  of: { existing: number } | { kept: number };
  similarity: number;
}

/**
 * Which new inputs to keep, in order: one whose cosine similarity to an existing case's input or to
 * an input kept before it is at least `threshold` is dropped (so of a paraphrase pair the first
 * written stays). `existing` and `fresh` are embedding vectors of one model.
 */
export function dropNearDuplicates(existing: readonly number[][], fresh: readonly number[][], threshold: number): { kept: number[]; dropped: NearDuplicate[] } {
  const kept: number[] = [];
  const dropped: NearDuplicate[] = [];
  for (let i = 0; i < fresh.length; i++) {
    const v = fresh[i]!;
    let best: NearDuplicate | undefined;
    existing.forEach((e, j) => {
      const s = cosineSimilarity(v, e);
      if (s >= threshold && (!best || s > best.similarity)) best = { index: i, of: { existing: j }, similarity: s };
    });
    for (const k of kept) {
      const s = cosineSimilarity(v, fresh[k]!);
      if (s >= threshold && (!best || s > best.similarity)) best = { index: i, of: { kept: k }, similarity: s };
    }
    if (best) dropped.push(best);
    else kept.push(i);
  }
  return { kept, dropped };
}
