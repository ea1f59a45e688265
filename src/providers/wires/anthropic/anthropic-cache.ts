import { familyRow } from '../../capability-lookup.js';
import { MODEL_TABLE } from '../../model-table.js';
import { largest } from '../../../core/extremes.js';
import { ANTHROPIC_TABLE } from './facts.js';

/** A family without a known minimum (a newer model) is held to the largest known one, not assumed to cache more. */
const UNKNOWN_FAMILY_MIN = largest(MODEL_TABLE.filter((row) => row.wire === ANTHROPIC_TABLE.id).map((row) => row.capabilities.promptCacheMinTokens ?? 0));

/**
 * The shortest prefix, in tokens, that Anthropic caches for a model: its family's
 * `promptCacheMinTokens` in the capability table. A shorter prefix marked with `cache_control` is
 * simply processed without caching (no error), so this only decides when marking is worth it.
 */
export function minCacheableTokens(model: string): number {
  return familyRow(ANTHROPIC_TABLE.id, model)?.capabilities.promptCacheMinTokens ?? UNKNOWN_FAMILY_MIN;
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
