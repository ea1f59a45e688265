import { modelFamily } from './model-family.js';

/**
 * The shortest prefix, in tokens, that Anthropic caches, by model family. A shorter prefix marked
 * with `cache_control` is simply processed without caching (no error), so these only decide when
 * marking is worth it.
 */
const MIN_CACHEABLE_TOKENS: Record<string, number> = {
  'claude-opus-4-6': 4096,
  'claude-opus-4-5': 4096,
  'claude-haiku-4-5': 4096,
  'claude-sonnet-4-6': 2048,
  'claude-sonnet-4-5': 1024,
  'claude-opus-4-1': 1024,
  'claude-opus-4': 1024,
  'claude-sonnet-4': 1024,
  'claude-3-7-sonnet': 1024,
  'claude-3-5-sonnet': 1024,
  'claude-3-opus': 1024,
  'claude-3-5-haiku': 2048,
  'claude-3-haiku': 2048,
};

/** A family not in the table (a newer model) is held to the largest known minimum, not assumed to cache more. */
const UNKNOWN_FAMILY_MIN = Math.max(...Object.values(MIN_CACHEABLE_TOKENS));

export function minCacheableTokens(model: string): number {
  return MIN_CACHEABLE_TOKENS[modelFamily(model)] ?? UNKNOWN_FAMILY_MIN;
}

/**
 * Tokens in a text, estimated low from its length: one per 4 characters, rounded down. Claude's
 * tokenizers give more than that for English prose and many more for JSON or code, so a prefix
 * estimated long enough is long enough; one just over the limit may go unmarked.
 */
export function estimateTokensLow(chars: number): number {
  return Math.floor(chars / 4);
}

/** Whether a prompt prefix of this many characters (tools, system, messages up to the mark) is worth a cache mark. */
export function worthCaching(model: string, prefixChars: number): boolean {
  return estimateTokensLow(prefixChars) >= minCacheableTokens(model);
}
