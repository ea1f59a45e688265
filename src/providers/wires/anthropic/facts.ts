/** The Anthropic Messages wire's defaults: shared by its descriptor and its request builder. */
import type { ModelCapabilities, WireTable } from '../../capabilities.js';

/**
 * A model the table does not know gets what the newest models accept, the conservative choice: no
 * sampling parameters, `output_config.format` for a structured answer.
 */
export const ANTHROPIC_TABLE: WireTable = {
  id: 'anthropic',
  defaultCapabilities: { sampling: 'none', structuredOutput: 'output_config', thinking: 'optional', tokenParam: 'max_tokens' },
  // 32 MB per request counts the base64 text and the prompt: 20 MB of PDF is about 26.7 MB of base64.
  pdfLimits: {
    maxBytes: 20 * 1024 * 1024,
    maxPages: 100,
    source: 'Anthropic docs: PDF support guide (maximum request size 32 MB, maximum pages per request 100, both for the whole request)',
    asOf: '2026-12-04',
  },
};

/** The Messages API requires max_tokens. For a model that thinks only when asked: */
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
