/**
 * Claude on Amazon Bedrock (`bedrock`): the Anthropic Messages wire (its request building, response
 * reading, thinking blocks, structured output, content parts and bodies) over the official
 * `@anthropic-ai/bedrock-sdk`, loaded on first use (an optional peer dependency). What differs: the
 * client (SigV4-signed requests to `/model/{id}/invoke`), the model ids (read under the Anthropic
 * rows: model-id.ts) and no batch API.
 */
import type { WireDescriptor } from '../../wire-descriptor.js';
import { ANTHROPIC_BODIES } from '../anthropic/bodies.js';
import { ANTHROPIC_TABLE, defaultAnthropicMaxTokens } from '../anthropic/facts.js';
import { BEDROCK_TABLE } from './facts.js';

export const BEDROCK_WIRE: WireDescriptor = {
  ...BEDROCK_TABLE,
  label: 'Claude on Amazon Bedrock (Anthropic Messages)',
  // Bedrock retires models on its own dates, not Anthropic's: the Anthropic rows' shutdown dates are not applied.
  homeProvider: ANTHROPIC_TABLE.id,
  defaultMaxTokens: defaultAnthropicMaxTokens,
  // An optional peer dependency: checked when a spec is resolved, loaded on the first call.
  sdkPackage: '@anthropic-ai/bedrock-sdk',
  provider: async (s) => (await import('./bedrock.js')).bedrockProvider(s),
  bodies: ANTHROPIC_BODIES,
};
