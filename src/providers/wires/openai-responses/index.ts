/**
 * The OpenAI Responses API (`openai-responses`): no provider names it; the OpenAI Chat Completions
 * wire sends a model spec here when `chosenOpenAIApi` says so (a model that takes function tools
 * only on Responses, or there only at effort `none`; or the spec's own `api: responses`). It reads
 * the same table rows as Chat Completions (wire `openai`), its embeddings are Chat Completions'
 * (OpenAI's embeddings endpoint), and its provider and batch API load the `openai` SDK on first use.
 */
import type { WireDescriptor } from '../../wire-descriptor.js';
import { embedderLoadedOnUse } from '../../embeddings.js';
import { OPENAI_BODIES } from '../openai/bodies.js';
import { OPENAI_TABLE } from '../openai/facts.js';
import { RESPONSES_WIRE_ID } from './wire-id.js';

export const OPENAI_RESPONSES_WIRE: WireDescriptor = {
  ...OPENAI_TABLE,
  id: RESPONSES_WIRE_ID,
  rowsOf: { wire: OPENAI_TABLE.id, modelId: (model) => model },
  label: 'OpenAI Responses',
  homeProvider: 'openai',
  tokenField: 'max_output_tokens',
  // The API takes a request without a limit.
  defaultMaxTokens: () => undefined,
  provider: async (s) => new (await import('./responses-provider.js')).OpenAIResponsesProvider(s),
  batchApi: async (s) => (await import('./responses-batch.js')).responsesBatchApi(s),
  embedder: (s) => embedderLoadedOnUse(s, async (settings) => (await import('../openai/openai-embedder.js')).openAIEmbedder(settings)),
  // A recording fetch reads Responses bodies with the OpenAI wire's reading (it knows both APIs).
  bodies: OPENAI_BODIES,
};
