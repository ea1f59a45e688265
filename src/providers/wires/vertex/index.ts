/**
 * Claude on Google Vertex AI (`vertex`): the Anthropic Messages wire (its request building, response
 * reading, thinking blocks, structured output, content parts and bodies) over the official
 * `@anthropic-ai/vertex-sdk`, loaded on first use (an optional peer dependency). What differs: the
 * client (Google OAuth, `…/publishers/anthropic/models/{id}:rawPredict`), the model ids (read under
 * the Anthropic rows: model-id.ts) and no batch API.
 */
import type { WireDescriptor } from '../../wire-descriptor.js';
import { ANTHROPIC_BODIES } from '../anthropic/bodies.js';
import { ANTHROPIC_TABLE, defaultAnthropicMaxTokens } from '../anthropic/facts.js';
import { VERTEX_TABLE } from './facts.js';

export const VERTEX_WIRE: WireDescriptor = {
  ...VERTEX_TABLE,
  label: 'Claude on Vertex AI (Anthropic Messages)',
  // Vertex AI retires models on its own dates, not Anthropic's: the Anthropic rows' shutdown dates are not applied.
  homeProvider: ANTHROPIC_TABLE.id,
  defaultMaxTokens: defaultAnthropicMaxTokens,
  // An optional peer dependency: checked when a spec is resolved, loaded on the first call.
  sdkPackage: '@anthropic-ai/vertex-sdk',
  provider: async (s) => (await import('./vertex.js')).vertexProvider(s),
  bodies: ANTHROPIC_BODIES,
};
