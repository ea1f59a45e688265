import { priceUsage, type PriceTable } from '../../providers/pricing.js';

/**
 * What `similarTo` will embed, counted from the plan rather than from a recording: one embedding of
 * the reply per assertion per trial, and one of each reference (`value`), which the judge cache then
 * holds for every other trial and case (the same model, `dimensions` and text). Priced from the
 * embedding rows of the price table, as judge usage. Token counts are not known before the call: a
 * text counts one token per 4 characters (OpenAI's rule of thumb for English); a reply is as long as
 * the case's recorded replies, else as its reference (a reply meant to be similar is about as long).
 */

/** One `similarTo` of a planned case, with its resolved model (never `fake`: that one spends nothing). */
export interface PlannedEmbedding {
  model: string;
  value: string;
  dimensions?: number | undefined;
}

/** What the plan's embeddings add to the judge column. */
export interface EmbeddingEstimate {
  replies: number;
  references: number;
  usd: number;
  /** Embeddings by a model with no known price (not in `usd`). */
  unpriced: number;
}

export const emptyEmbeddingEstimate = (): EmbeddingEstimate => ({ replies: 0, references: 0, usd: 0, unpriced: 0 });

/** One token per 4 characters, at least one. */
export const estimatedTokens = (chars: number): number => Math.max(1, Math.ceil(chars / 4));

/**
 * The dollars of one case's embeddings over `trials`, added to `into`; `seen` holds the references
 * already counted (shared across the plan, as the cache shares them). Returns this case's dollars.
 */
export function addCaseEmbeddings(into: EmbeddingEstimate, seen: Set<string>, embeddings: readonly PlannedEmbedding[], trials: number, replyChars: number | undefined, pricing: PriceTable): number {
  let usd = 0;
  const price = (model: string, tokens: number, count: number): void => {
    const one = priceUsage(model, { inputTokens: tokens, outputTokens: 0, cachedInputTokens: 0 }, pricing);
    if (one === null) into.unpriced += count;
    else usd += one * count;
  };
  for (const e of embeddings) {
    into.replies += trials;
    price(e.model, estimatedTokens(replyChars ?? e.value.length), trials);
    const ref = JSON.stringify([e.model, e.dimensions ?? null, e.value]);
    if (seen.has(ref)) continue;
    seen.add(ref);
    into.references += 1;
    price(e.model, estimatedTokens(e.value.length), 1);
  }
  into.usd += usd;
  return usd;
}
