/**
 * OpenAI Chat Completions (`openai`): the wire of OpenAI and of every OpenAI-compatible preset; a
 * model spec chosen for the Responses API (api-choice.ts) goes to that wire instead. Its
 * provider, batch API (JSONL of Chat Completions requests) and embedder load the `openai` SDK on first use.
 */
import type { WireDescriptor } from '../../wire-descriptor.js';
import { OPENAI_BODIES } from './bodies.js';
import { OPENAI_TABLE } from './facts.js';
import { chatRefusal, chatSentEffort } from './chat-tools.js';
import { embedderLoadedOnUse } from '../../embeddings.js';
import { OPENAI_RESPONSES_WIRE } from '../openai-responses/index.js';
import { chosenOpenAIApi } from './api-choice.js';

export const OPENAI_WIRE: WireDescriptor = {
  ...OPENAI_TABLE,
  label: 'OpenAI Chat Completions',
  homeProvider: 'openai',
  // The API takes a request without a limit.
  defaultMaxTokens: () => undefined,
  provider: async (s) => new (await import('./openai.js')).OpenAIProvider(s),
  batchApi: async (s) => new (await import('./openai-batch.js')).OpenAIBatchApi(s),
  embedder: (s) => embedderLoadedOnUse(s, async (settings) => (await import('./openai-embedder.js')).openAIEmbedder(settings)),
  // A spec whose model belongs on the Responses API (api-choice.ts) goes there.
  wireFor: (spec, caps) => (chosenOpenAIApi(spec, caps) === 'responses' ? OPENAI_RESPONSES_WIRE : undefined),
  refusal: chatRefusal,
  sentEffort: chatSentEffort,
  bodies: OPENAI_BODIES,
};
