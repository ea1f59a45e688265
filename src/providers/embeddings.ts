import type { TokenUsage } from '../core/usage.js';
import { fakeEmbedding } from './fake-embedder.js';
import { formatModelSpec } from './model-spec.js';
import type { ProviderSettings } from './settings.js';

/** One text's embedding and what the call spent. */
export interface EmbeddingAnswer {
  vector: number[];
  tokens: TokenUsage;
  /** The model that answered, as the server names it. */
  model: string;
}

/** An embedding model: `spec` is `provider:model` (or `fake`); `endpoint` goes into the cache key with it. */
export interface Embedder {
  spec: string;
  endpoint: string;
  /** `dimensions`: shorter vectors, asked of the API (the offline embedder ignores it). */
  embed(text: string, signal: AbortSignal, dimensions?: number): Promise<EmbeddingAnswer>;
}

/** The offline embedder (fake-embedder.ts): no call, no tokens. */
export const fakeEmbedder: Embedder = {
  spec: 'fake',
  endpoint: 'local',
  embed: async (text) => ({ vector: fakeEmbedding(text), tokens: { inputTokens: 0, outputTokens: 0 }, model: 'fake' }),
};

/**
 * An embedder whose module (and SDK) `load` imports on its first call: a wire's descriptor hands one
 * out without loading its HTTP stack.
 */
export function embedderLoadedOnUse(settings: ProviderSettings, load: (settings: ProviderSettings) => Promise<Embedder>): Embedder {
  let loaded: Promise<Embedder> | undefined;
  return {
    spec: formatModelSpec(settings.spec),
    endpoint: settings.baseURL,
    embed: async (text, signal, dimensions) => (await (loaded ??= load(settings))).embed(text, signal, dimensions),
  };
}
