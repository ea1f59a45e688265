/**
 * Gemini's `usageMetadata` as our TokenUsage (SDK GenerateContentResponseUsageMetadata). Type-only
 * SDK import: the raw-body reader (bodies.ts) uses it without loading the SDK.
 */
import type { GenerateContentResponseUsageMetadata } from '@google/genai';
import type { TokenUsage } from '../../../core/usage.js';

/**
 * `promptTokenCount` is the whole prompt, cached part included (`cachedContentTokenCount` is a part
 * of it); `candidatesTokenCount` leaves out the thinking, counted apart in `thoughtsTokenCount` and
 * billed as output (Gemini API docs: Thinking, "pricing is the sum of output tokens and thinking
 * tokens"; Context caching, usage metadata; read 2026-12-04). Ours counts thinking inside
 * `outputTokens`, as the other wires do, with `reasoningTokens` saying how much. Tool-use prompt
 * tokens (server-side tools, which this project does not send) are input.
 */
export function fromGeminiUsage(u: GenerateContentResponseUsageMetadata | undefined): TokenUsage {
  const thoughts = u?.thoughtsTokenCount ?? 0;
  const usage: TokenUsage = {
    inputTokens: (u?.promptTokenCount ?? 0) + (u?.toolUsePromptTokenCount ?? 0),
    outputTokens: (u?.candidatesTokenCount ?? 0) + thoughts,
  };
  if (u?.cachedContentTokenCount !== undefined) usage.cachedInputTokens = u.cachedContentTokenCount;
  if (u?.thoughtsTokenCount !== undefined) usage.reasoningTokens = thoughts;
  return usage;
}
