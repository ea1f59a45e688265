/**
 * Anthropic Messages (`anthropic`). Its provider and batch API (Message Batches) load
 * `@anthropic-ai/sdk` on first use; it has no embeddings endpoint.
 */
import type { WireDescriptor } from '../../wire-descriptor.js';
import { ANTHROPIC_BODIES } from './bodies.js';
import { ANTHROPIC_TABLE, defaultAnthropicMaxTokens } from './facts.js';

export const ANTHROPIC_WIRE: WireDescriptor = {
  ...ANTHROPIC_TABLE,
  label: 'Anthropic Messages',
  homeProvider: 'anthropic',
  // The API requires max_tokens: room for thinking where the model thinks unasked.
  defaultMaxTokens: defaultAnthropicMaxTokens,
  provider: async (s) => new (await import('./anthropic.js')).AnthropicProvider(s),
  batchApi: async (s) => (await import('./anthropic-batch.js')).anthropicBatchApi(s),
  bodies: ANTHROPIC_BODIES,
};
