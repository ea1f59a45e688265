import { emptyUsage, type Usage } from '../core/usage.js';
import type { Embedder } from '../providers/embeddings.js';
import { priced, type Pricing } from '../providers/run-usage.js';
import type { SecretRedactor } from '../providers/secret-redactor.js';
import { judgeCacheKey, type JudgeCache } from './cache.js';

/** Cache keys of embeddings: the judge cache's keying with a request kind no judge prompt has. */
const EMBEDDING_REQUEST = 'embedding';

export interface EmbeddingUse {
  /** The judges' cache: an embedding is kept there like a judge answer (its vector as the answer's text). */
  cache: JudgeCache | undefined;
  pricing: Pricing;
  /** The run's secrets never reach the embedding model (another provider, maybe) nor the cache key. */
  redactor?: SecretRedactor;
}

/** One text's vector and what it cost: nothing when `cached` (`saved` the input tokens the cache saved). */
export interface CachedVector {
  vector: number[];
  spent: Usage;
  cached: boolean;
  saved: number;
}

/**
 * One text's vector: from this run or the disk cache when seen before, else one call (then kept).
 * `similarTo` and `agent-evals generate` (near-duplicate inputs) embed through here, so both share
 * one cache and one keying.
 */
export async function cachedEmbedding(embedder: Embedder, raw: string, dimensions: number | undefined, signal: AbortSignal, use: EmbeddingUse): Promise<CachedVector> {
  const text = use.redactor ? use.redactor.redact(raw) : raw;
  const call = async () => {
    const answer = await embedder.embed(text, signal, dimensions);
    return { text: JSON.stringify(answer.vector), tokens: answer.tokens, model: answer.model };
  };
  const key = judgeCacheKey({
    spec: embedder.spec,
    system: EMBEDDING_REQUEST,
    user: text,
    schema: null,
    options: { endpoint: embedder.endpoint, ...(dimensions !== undefined ? { dimensions } : {}) },
  });
  const answer = use.cache ? await use.cache.getOrCall(key, call) : Object.assign(await call(), { cached: false });
  if (use.cache && !answer.cached) await use.cache.store(key, { text: answer.text, tokens: answer.tokens, model: answer.model });
  const spent = answer.cached ? emptyUsage() : priced(answer.tokens, embedder.spec === 'fake' ? undefined : embedder.spec, use.pricing);
  return { vector: JSON.parse(answer.text) as number[], spent, cached: answer.cached, saved: answer.cached ? answer.tokens.inputTokens : 0 };
}
