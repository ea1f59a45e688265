import pLimit from 'p-limit';
import { AgentEvalsError, errorMessage } from '../core/errors.js';
import { sumUsage, type Usage } from '../core/usage.js';
import type { Embedder } from '../providers/embeddings.js';
import { cachedEmbedding, type EmbeddingUse } from '../judges/cached-embedding.js';

/** What embedding the inputs cost: calls made, texts the cache already had, and the priced usage. */
export interface EmbeddingSpend {
  usage: Usage;
  cached: number;
}

/**
 * The vectors of `texts`, in order, through the judges' embedding cache (`similarTo`'s keying, so a
 * text embedded by either is not paid for twice), at most `concurrency` calls at a time. A failed call
 * is an error naming the embedding model.
 */
export async function embedInputs(
  embedder: Embedder,
  texts: readonly string[],
  opts: EmbeddingUse & { concurrency: number; signal: AbortSignal },
): Promise<{ vectors: number[][]; spend: EmbeddingSpend }> {
  const limit = pLimit(Math.max(1, opts.concurrency));
  const answers = await Promise.all(texts.map((t) => limit(() => cachedEmbedding(embedder, t, undefined, opts.signal, opts)))).catch((err: unknown) => {
    throw new AgentEvalsError(`embedding model ${embedder.spec}: ${errorMessage(err)}`, { cause: err });
  });
  const usage = sumUsage(answers.map((a) => a.spent));
  usage.calls = answers.filter((a) => !a.cached).length;
  return { vectors: answers.map((a) => a.vector), spend: { usage, cached: answers.filter((a) => a.cached).length } };
}
