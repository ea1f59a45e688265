import type { TokenUsage } from '../core/usage.js';

/** Counts as a framework reports them, any of which may be missing or not a number. */
export interface TokenCounts {
  input: unknown;
  output: unknown;
  cachedInput?: unknown;
  cacheWrite?: unknown;
  reasoning?: unknown;
}

/** A count the framework reported, or undefined for anything that is not a non-negative integer. */
export function count(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : undefined;
}

/**
 * One call's usage in the AgentRun convention (`inputTokens` the whole prompt, cache reads and
 * writes parts of it), or undefined when the framework reported no input or output count: a step
 * without usage is not priced, where invented zeros would be priced as free.
 */
export function tokenUsage(c: TokenCounts): TokenUsage | undefined {
  const inputTokens = count(c.input);
  const outputTokens = count(c.output);
  if (inputTokens === undefined && outputTokens === undefined) return undefined;
  const usage: TokenUsage = { inputTokens: inputTokens ?? 0, outputTokens: outputTokens ?? 0 };
  const cached = count(c.cachedInput);
  const cacheWrite = count(c.cacheWrite);
  const reasoning = count(c.reasoning);
  if (cached !== undefined) usage.cachedInputTokens = cached;
  if (cacheWrite !== undefined) usage.cacheWriteTokens = cacheWrite;
  if (reasoning !== undefined) usage.reasoningTokens = reasoning;
  return usage;
}

/** A framework's provider id cut at its first `.` (`openai.chat` is `openai`, `anthropic.messages` is `anthropic`). */
export function providerId(raw: string): string {
  return raw.split('.')[0] ?? raw;
}

/** `provider:model`, or the bare model id when the provider is unknown (the price table then tries every provider). */
export function modelSpec(provider: unknown, model: unknown): string | undefined {
  if (typeof model !== 'string' || model === '') return undefined;
  return typeof provider === 'string' && provider !== '' ? `${provider}:${model}` : model;
}
