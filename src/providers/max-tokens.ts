import { type ModelSpec } from './model-spec.js';
import { specCapabilities, specWire } from './wires.js';

/**
 * The output-token limit a call under `spec` gets when the call sets none: the spec's, else its
 * wire's default (a wire whose API requires one); undefined: none is sent.
 */
export function maxTokensOf(spec: ModelSpec): number | undefined {
  return spec.maxTokens ?? specWire(spec).defaultMaxTokens(specCapabilities(spec));
}
