import type { ModelCapabilities } from './capabilities.js';
import { specCapabilities, type ModelSpec } from './model-spec.js';
import { wireOf } from './registry.js';

/** Anthropic requires max_tokens; OpenAI gets none unless asked. For a model that thinks only when asked: */
export const DEFAULT_ANTHROPIC_MAX_TOKENS = 4096;
/**
 * For a model that thinks by default or always: thinking tokens count against max_tokens (SDK 1.14
 * MessageCreateParams.thinking; Anthropic docs: What's new in Claude Haiku 5.5, "existing max_tokens
 * values still work, but thinking tokens count toward them", read 2026-12-01), so the answer (a
 * judge's JSON after its thinking) needs room beyond it. A ceiling, not a spend.
 */
export const DEFAULT_ANTHROPIC_THINKING_MAX_TOKENS = 16_000;

/** Room for thinking where the model thinks unasked, within the largest limit the model takes. */
export function defaultAnthropicMaxTokens(caps: ModelCapabilities): number {
  const thinks = caps.thinking === 'default-on' || caps.thinking === 'always';
  const wanted = thinks ? DEFAULT_ANTHROPIC_THINKING_MAX_TOKENS : DEFAULT_ANTHROPIC_MAX_TOKENS;
  return caps.maxOutputTokens !== undefined ? Math.min(wanted, caps.maxOutputTokens) : wanted;
}

/**
 * The output-token limit a call under `spec` gets when the call sets none: the spec's, else the
 * Anthropic wire's default (its API requires one); the OpenAI wire sends none.
 */
export function maxTokensOf(spec: ModelSpec): number | undefined {
  return spec.maxTokens ?? (wireOf(spec.provider) === 'anthropic' ? defaultAnthropicMaxTokens(specCapabilities(spec)) : undefined);
}
