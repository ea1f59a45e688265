/**
 * Bundled model prices: a dated SNAPSHOT of the providers' public list prices (standard tier), in
 * USD per 1M tokens; the batch APIs charge BATCH_RATE of them. Prices change; a user table (`pricing` in
 * evals.config.ts) overrides or extends this one. A model missing here is reported with cost null.
 *
 * Known simplifications:
 * - Long-context surcharges (e.g. Sonnet 4/4.5 prompts over 200K tokens) are not modelled.
 */
import { z } from 'zod';

export const PRICES_AS_OF = '2026-11-01';

/** One model's price: the bundled table and the config's `pricing` entries share this schema. */
export const PriceSchema = z
  .object({
    /** USD per 1M uncached input tokens. */
    input: z.number().nonnegative(),
    /** USD per 1M output tokens (reasoning tokens included: they are billed as output). */
    output: z.number().nonnegative(),
    /** USD per 1M cached input tokens; falls back to `input` when absent. */
    cachedInput: z.number().nonnegative().optional(),
    /** USD per 1M input tokens written to the prompt cache (5-minute lifetime); falls back to `input`. */
    cacheWrite: z.number().nonnegative().optional(),
    /** USD per 1M tokens written with the 1-hour lifetime; falls back to `cacheWrite`, then `input`. */
    cacheWrite1h: z.number().nonnegative().optional(),
    /** Fraction of these prices charged through the provider's batch API; falls back to BATCH_RATE's. */
    batch: z.number().min(0).max(1).optional(),
  })
  .strict();
export type Price = z.infer<typeof PriceSchema>;

/** Anthropic bills cache writes at 1.25x base input (5 minutes) and 2x (1 hour), for every model. */
function withAnthropicCacheWrites(table: Record<string, Price>): Record<string, Price> {
  return Object.fromEntries(Object.entries(table).map(([model, p]) => [model, { cacheWrite: p.input * 1.25, cacheWrite1h: p.input * 2, ...p }]));
}

export const OPENAI_PRICES: Record<string, Price> = {
  // GPT-5 family: cached input at 10% of input.
  'gpt-5': { input: 1.25, output: 10, cachedInput: 0.125 },
  'gpt-5-mini': { input: 0.25, output: 2, cachedInput: 0.025 },
  'gpt-5-nano': { input: 0.05, output: 0.4, cachedInput: 0.005 },
  'gpt-5.1': { input: 1.25, output: 10, cachedInput: 0.125 },
  // Less sure: gpt-5.2 and gpt-5.4 rows come from secondary write-ups quoting OpenAI's page.
  'gpt-5.2': { input: 1.75, output: 14, cachedInput: 0.175 },
  'gpt-5.4': { input: 2.5, output: 15, cachedInput: 0.25 },
  'gpt-5.4-mini': { input: 0.75, output: 4.5, cachedInput: 0.075 },
  'gpt-5.4-nano': { input: 0.2, output: 1.25, cachedInput: 0.02 },
  // GPT-4.1 family: cached input at 25% of input.
  'gpt-4.1': { input: 2, output: 8, cachedInput: 0.5 },
  'gpt-4.1-mini': { input: 0.4, output: 1.6, cachedInput: 0.1 },
  'gpt-4.1-nano': { input: 0.1, output: 0.4, cachedInput: 0.025 },
  // GPT-4o family: cached input at 50% of input. The first gpt-4o snapshot kept its launch price.
  'gpt-4o': { input: 2.5, output: 10, cachedInput: 1.25 },
  'gpt-4o-2024-05-13': { input: 5, output: 15 },
  'gpt-4o-mini': { input: 0.15, output: 0.6, cachedInput: 0.075 },
  // o-series (o3 after its June 2025 price cut).
  o3: { input: 2, output: 8, cachedInput: 0.5 },
  'o4-mini': { input: 1.1, output: 4.4, cachedInput: 0.275 },
  'o3-mini': { input: 1.1, output: 4.4, cachedInput: 0.55 },
  o1: { input: 15, output: 60, cachedInput: 7.5 },
};

export const ANTHROPIC_PRICES: Record<string, Price> = withAnthropicCacheWrites({
  // "Cache hits and refreshes" are 10% of base input.
  'claude-opus-5': { input: 5, output: 25, cachedInput: 0.5 },
  'claude-opus-4-8': { input: 5, output: 25, cachedInput: 0.5 },
  'claude-opus-4-7': { input: 5, output: 25, cachedInput: 0.5 },
  'claude-opus-4-6': { input: 5, output: 25, cachedInput: 0.5 },
  'claude-opus-4-5': { input: 5, output: 25, cachedInput: 0.5 },
  'claude-opus-4-1': { input: 15, output: 75, cachedInput: 1.5 },
  'claude-opus-4': { input: 15, output: 75, cachedInput: 1.5 },
  // Less sure: Sonnet 5.5's cache-read price was reportedly cut to 5% of input in Oct 2026.
  'claude-sonnet-5-5': { input: 2, output: 10, cachedInput: 0.1 },
  'claude-sonnet-5': { input: 2, output: 10, cachedInput: 0.2 },
  'claude-sonnet-4-6': { input: 3, output: 15, cachedInput: 0.3 },
  'claude-sonnet-4-5': { input: 3, output: 15, cachedInput: 0.3 },
  'claude-sonnet-4': { input: 3, output: 15, cachedInput: 0.3 },
  'claude-3-7-sonnet': { input: 3, output: 15, cachedInput: 0.3 },
  'claude-haiku-4-5': { input: 1, output: 5, cachedInput: 0.1 },
  'claude-3-5-haiku': { input: 0.8, output: 4, cachedInput: 0.08 },
  'claude-3-haiku': { input: 0.25, output: 1.25, cachedInput: 0.03 },
});

/** Both providers' batch APIs (OpenAI Batch, Anthropic Message Batches) bill 50% of every standard rate. */
export const BATCH_RATE: Record<string, number> = { openai: 0.5, anthropic: 0.5 };

export const BUNDLED_PRICES: Record<string, Record<string, Price>> = {
  openai: OPENAI_PRICES,
  anthropic: ANTHROPIC_PRICES,
};
