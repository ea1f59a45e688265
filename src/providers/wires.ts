/**
 * What each wire format brings: the provider over its SDK and its batch API. Each module (and its
 * SDK) is imported on first use, so naming a provider loads nothing; a preset on the OpenAI wire
 * loads the OpenAI SDK and never the Anthropic one.
 */
import type { BatchApi } from './batch-types.js';
import type { Wire } from './capabilities.js';
import type { ProviderSettings } from './settings.js';
import type { Provider } from './types.js';

export interface WireModules {
  provider(settings: ProviderSettings): Promise<Provider>;
  batchApi(settings: ProviderSettings): Promise<BatchApi>;
}

export const WIRES: Record<Wire, WireModules> = {
  openai: {
    provider: async (s) => new (await import('./openai.js')).OpenAIProvider(s),
    batchApi: async (s) => new (await import('./openai-batch.js')).OpenAIBatchApi(s),
  },
  anthropic: {
    provider: async (s) => new (await import('./anthropic.js')).AnthropicProvider(s),
    batchApi: async (s) => (await import('./anthropic-batch.js')).anthropicBatchApi(s),
  },
};
