/**
 * Bundled model prices: a dated SNAPSHOT of the providers' public list prices (standard tier), in
 * USD per 1M tokens; the batch APIs charge BATCH_RATE of them. Prices change; a user table (`pricing` in
 * evals.config.ts) overrides or extends this one. A model missing here is reported with cost null.
 * Every row says where it was read (`source`, in words) and when (`asOf`). Where a provider charges
 * another rate above a prompt size (long-prompt tiers), the row's `tiers` hold it; pricing.ts picks
 * the tier from the input size of the one call.
 */
import { z } from 'zod';

/** The newest read in the table (GPT-5.6 Sol, 2026-12-04; the embedding rows 2026-12-02; the other chat models 2026-12-01). */
export const PRICES_AS_OF = '2026-12-04';

/** The rates a price (or one of its tiers) sets: USD per 1M tokens. */
const RatesShape = {
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
};

/** The rates of a call whose input is larger than `aboveInputTokens` (the whole call is billed at them). */
export const PriceTierSchema = z
  .object({
    aboveInputTokens: z.number().int().nonnegative(),
    ...RatesShape,
  })
  .strict();
export type PriceTier = z.infer<typeof PriceTierSchema>;

/** One model's price: the bundled table and the config's `pricing` entries share this schema. */
export const PriceSchema = z
  .object({
    ...RatesShape,
    /** Fraction of these prices charged through the provider's batch API; falls back to BATCH_RATE's. */
    batch: z.number().min(0).max(1).optional(),
    /** Long-prompt tiers: a call with more input tokens than a tier's `aboveInputTokens` pays that tier's rates. */
    tiers: z.array(PriceTierSchema).optional(),
    /**
     * The docs date this price (a promotion documented until a day): the run warns once per model it
     * calls with such a price, naming both figures and the date, since its costs may be off.
     */
    mayBeStale: z
      .object({
        /** The last day the docs say this price holds (YYYY-MM-DD). */
        goodUntil: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'expected YYYY-MM-DD'),
        /** The other figure, USD per 1M input and output tokens (the price before the promotion). */
        otherwise: z.object({ input: z.number().nonnegative(), output: z.number().nonnegative() }).strict(),
        /** Why the price may be stale and why this figure was kept, in words. */
        note: z.string().min(1),
      })
      .strict()
      .optional(),
    /** Where the price was read, in words, and the date it was read. */
    source: z.string().min(1).optional(),
    asOf: z
      .string()
      .regex(/^\d{4}-\d{2}-\d{2}$/, 'expected YYYY-MM-DD')
      .optional(),
  })
  .strict();
export type Price = z.infer<typeof PriceSchema>;

const READ = '2026-12-01';
/** Rows carried over from the table of 2026-11-01 and not re-read: retired or shut-down models. */
const CARRIED = '2026-11-01';

/** Anthropic bills cache writes at 1.25x base input (5 minutes) and 2x (1 hour), for every model and tier. */
function withAnthropicCacheWrites(table: Record<string, Price>): Record<string, Price> {
  const writes = <T extends { input: number }>(p: T): T => ({ cacheWrite: p.input * 1.25, cacheWrite1h: p.input * 2, ...p });
  return Object.fromEntries(Object.entries(table).map(([model, p]) => [model, writes({ ...p, ...(p.tiers ? { tiers: p.tiers.map(writes) } : {}) })]));
}

/**
 * OpenAI's long-context rule for the models with a 1M window: a prompt over 272K input tokens pays
 * 2x input and cache rates and 1.5x output for the whole request.
 */
function over272k(p: Omit<Price, 'tiers'>): Price {
  const tier: PriceTier = { aboveInputTokens: 272_000, input: p.input * 2, output: p.output * 1.5 };
  if (p.cachedInput !== undefined) tier.cachedInput = p.cachedInput * 2;
  if (p.cacheWrite !== undefined) tier.cacheWrite = p.cacheWrite * 2;
  return { ...p, tiers: [tier] };
}

/** OpenAI list prices read today from third-party price tables that quote the pricing page (the page itself was not reached). */
const OPENAI_QUOTED = 'OpenAI list price as quoted by third-party price tables';

export const OPENAI_PRICES: Record<string, Price> = {
  // GPT-6 family: cache writes 1.25x input; the >272K tier on every model.
  'gpt-6.2-astra': over272k({ input: 8, output: 40, cachedInput: 0.4, source: 'OpenAI docs: GPT-6.2 Astra model page (20% under GPT-6 Astra, cached input 60% cheaper)', asOf: READ }),
  'gpt-6.2-sol': over272k({ input: 2, output: 10, cachedInput: 0.1, cacheWrite: 2.5, source: 'OpenAI docs: GPT-6.2 Sol model page (cache writes $2.50, 30-minute retention)', asOf: '2026-12-04' }),
  'gpt-6-astra': over272k({ input: 10, output: 50, cachedInput: 1, cacheWrite: 12.5, source: 'OpenAI docs: GPT-6 Astra model page', asOf: READ }),
  'gpt-6.1-sol': over272k({ input: 2, output: 10, cachedInput: 0.1, cacheWrite: 2.5, source: 'OpenAI docs: GPT-6.1 Sol model page', asOf: READ }),
  'gpt-6-sol': over272k({ input: 2, output: 10, cachedInput: 0.2, cacheWrite: 2.5, source: 'OpenAI docs: GPT-6 Sol model page (cached input 90% off)', asOf: READ }),
  'gpt-6.1-terra': over272k({ input: 1, output: 5, cachedInput: 0.05, cacheWrite: 1.25, source: 'OpenAI docs: GPT-6.1 Terra model page', asOf: READ }),
  'gpt-6-luna': over272k({ input: 0.1, output: 0.5, cachedInput: 0.01, cacheWrite: 0.125, source: 'OpenAI docs: GPT-6 Luna model page', asOf: READ }),
  // GPT-5.6 family (gpt-5.6 is an alias of gpt-5.6-sol): cache writes 1.25x input.
  // GPT-5.6 Sol: $4/$20 is a promotion the model page (read 2026-12-04) documents "at least until
  // 2026-11-21"; before it $5/$30. Kept at $4/$20 because the page (and the Models overview) still
  // lists it today, past that date, with no other figure; marked as at risk, so a run warns.
  'gpt-5.6': over272k({
    input: 4,
    output: 20,
    cachedInput: 0.4,
    cacheWrite: 5,
    mayBeStale: { goodUntil: '2026-11-21', otherwise: { input: 5, output: 30 }, note: 'a promotion the model page documents at least until that day; the price before it' },
    source: 'OpenAI docs: GPT-5.6 Sol model page, read in its Portuguese and Japanese copies (the gpt-5.6 alias routes to Sol)',
    asOf: '2026-12-04',
  }),
  'gpt-5.6-sol': over272k({
    input: 4,
    output: 20,
    cachedInput: 0.4,
    cacheWrite: 5,
    mayBeStale: { goodUntil: '2026-11-21', otherwise: { input: 5, output: 30 }, note: 'a promotion the model page documents at least until that day; the price before it' },
    source: 'OpenAI docs: GPT-5.6 Sol model page and Models overview, read in their Portuguese, Japanese and Chinese copies',
    asOf: '2026-12-04',
  }),
  'gpt-5.6-terra': over272k({ input: 2, output: 12, cachedInput: 0.2, cacheWrite: 2.5, source: 'OpenAI docs: GPT-5.6 Luna model page, quick comparison (Terra)', asOf: READ }),
  'gpt-5.6-luna': over272k({ input: 0.2, output: 1.2, cachedInput: 0.02, cacheWrite: 0.25, source: 'OpenAI docs: GPT-5.6 Luna model page', asOf: READ }),
  // GPT-5.x: cached input at 10% of input.
  'gpt-5.5': over272k({ input: 5, output: 30, cachedInput: 0.5, source: 'OpenAI docs: GPT-5.6 Sol model page, quick comparison (GPT-5.5); >272K rule from the GPT-5.5 model page', asOf: READ }),
  'gpt-5.5-pro': over272k({ input: 30, output: 180, cachedInput: 3, source: OPENAI_QUOTED, asOf: READ }),
  'gpt-5.4': over272k({ input: 2.5, output: 15, cachedInput: 0.25, source: 'OpenAI docs: GPT-5.6 Sol model page, quick comparison (GPT-5.4)', asOf: READ }),
  'gpt-5.4-mini': { input: 0.75, output: 4.5, cachedInput: 0.075, source: OPENAI_QUOTED, asOf: READ },
  'gpt-5.4-nano': { input: 0.2, output: 1.25, cachedInput: 0.02, source: 'OpenAI docs: GPT-5.6 Luna model page, quick comparison (GPT-5.4 nano)', asOf: READ },
  'gpt-5.3-codex': { input: 1.75, output: 14, cachedInput: 0.175, source: OPENAI_QUOTED, asOf: READ },
  'gpt-5.2': { input: 1.75, output: 14, cachedInput: 0.175, source: OPENAI_QUOTED, asOf: READ },
  'gpt-5.1': { input: 1.25, output: 10, cachedInput: 0.125, source: 'Earlier bundled table (shuts down 2027-04-01)', asOf: CARRIED },
  'gpt-5': { input: 1.25, output: 10, cachedInput: 0.125, source: 'OpenAI docs: GPT-5-Codex model page, quick comparison (GPT-5)', asOf: READ },
  'gpt-5-mini': { input: 0.25, output: 2, cachedInput: 0.025, source: OPENAI_QUOTED, asOf: READ },
  'gpt-5-nano': { input: 0.05, output: 0.4, cachedInput: 0.005, source: OPENAI_QUOTED, asOf: READ },
  'gpt-5-pro': { input: 15, output: 120, source: OPENAI_QUOTED, asOf: READ },
  // Chat variants bill as their base model (the chat variants' own rows were not read: see the source).
  'gpt-5-chat': { input: 1.25, output: 10, cachedInput: 0.125, source: 'OpenAI list price as quoted by third-party price tables (GPT-5 Chat at the GPT-5 rate)', asOf: READ },
  'gpt-5.1-chat': { input: 1.25, output: 10, cachedInput: 0.125, source: 'Assumed at the GPT-5.1 rate (row not read)', asOf: READ },
  'gpt-5.2-chat': { input: 1.75, output: 14, cachedInput: 0.175, source: 'Assumed at the GPT-5.2 rate (row not read)', asOf: READ },
  'gpt-5.3-chat': { input: 1.75, output: 14, cachedInput: 0.175, source: 'Assumed at the GPT-5.3-Codex rate (row not read)', asOf: READ },
  // GPT-4.1 family: cached input at 25% of input.
  'gpt-4.1': { input: 2, output: 8, cachedInput: 0.5, source: OPENAI_QUOTED, asOf: READ },
  'gpt-4.1-mini': { input: 0.4, output: 1.6, cachedInput: 0.1, source: 'Earlier bundled table (shuts down 2027-01-14)', asOf: CARRIED },
  'gpt-4.1-nano': { input: 0.1, output: 0.4, cachedInput: 0.025, source: 'Earlier bundled table (shut down 2026-10-23)', asOf: CARRIED },
  // GPT-4o family: cached input at 50% of input. The first gpt-4o snapshot kept its launch price.
  'gpt-4o': { input: 2.5, output: 10, cachedInput: 1.25, source: 'Earlier bundled table (shuts down 2027-01-14)', asOf: CARRIED },
  'gpt-4o-2024-05-13': { input: 5, output: 15, source: 'Earlier bundled table (shut down 2026-10-23)', asOf: CARRIED },
  'gpt-4o-mini': { input: 0.15, output: 0.6, cachedInput: 0.075, source: 'Earlier bundled table (shuts down 2027-01-14)', asOf: CARRIED },
  'chatgpt-4o': { input: 5, output: 15, source: 'Earlier bundled table (chatgpt-4o-latest at the first gpt-4o snapshot rate)', asOf: CARRIED },
  // o-series (o3 after its June 2025 price cut).
  o3: { input: 2, output: 8, cachedInput: 0.5, source: 'Earlier bundled table (shuts down 2026-12-11)', asOf: CARRIED },
  'o4-mini': { input: 1.1, output: 4.4, cachedInput: 0.275, source: 'Earlier bundled table (shut down 2026-10-23)', asOf: CARRIED },
  'o3-mini': { input: 1.1, output: 4.4, cachedInput: 0.55, source: 'Earlier bundled table (shut down 2026-10-23)', asOf: CARRIED },
  o1: { input: 15, output: 60, cachedInput: 7.5, source: 'Earlier bundled table (shut down 2026-10-23)', asOf: CARRIED },
  // Embedding models (`similarTo`; embedding-models.ts says which embed): input tokens only.
  'text-embedding-3-large': { input: 0.13, output: 0, source: 'OpenAI docs: text-embedding-3-large model page', asOf: PRICES_AS_OF },
  'text-embedding-3-small': { input: 0.02, output: 0, source: 'OpenAI docs: text-embedding-3-large model page, quick comparison (text-embedding-3-small)', asOf: PRICES_AS_OF },
  // ada-002: neither OpenAI's pricing page nor its ada-002 model page was found in the provider docs
  // searched on 2026-12-02; OpenAI's own announcement is the provider's word on the rate (not
  // deprecated there), and the third-party tables read the same day still quote $0.10/1M.
  'text-embedding-ada-002': {
    input: 0.1,
    output: 0,
    source: 'OpenAI announcement "New embedding models and API updates" (2024-01-25): $0.0001 per 1K tokens; no newer OpenAI page found, third-party tables agree',
    asOf: PRICES_AS_OF,
  },
};

/**
 * Models the capability table knows whose price the provider's docs do not publish (searched
 * 2026-12-04): no row above, ON PURPOSE, so a run reports their cost as unknown (null, with its
 * warning) instead of a sibling's rate that looks right. A user's `pricing` entry prices them.
 */
export const UNPUBLISHED_PRICES: Record<string, { source: string; asOf: string }> = {
  'openai:gpt-6-cyber': {
    source: 'No price in the stored copies of OpenAI docs (trusted-access model); a third-party price table notes OpenAI publishes its row empty',
    asOf: '2026-12-04',
  },
  'openai:gpt-6-rosalind': { source: 'No price in the stored copies of OpenAI docs (life-sciences model, trusted access only)', asOf: '2026-12-04' },
  'openai:gpt-6.2-astra-law': {
    source: 'No price in the stored copies of OpenAI docs; third-party tables price a gpt-6-astra-law at $10/$50, not this id',
    asOf: '2026-12-04',
  },
  'openai:gpt-5.6-cyber': { source: 'No price in the stored copies of OpenAI docs (trusted-access model)', asOf: '2026-12-04' },
};

const ANTHROPIC_PRICING = 'Anthropic docs: Pricing page';

export const ANTHROPIC_PRICES: Record<string, Price> = withAnthropicCacheWrites({
  // "Cache hits and refreshes" are 10% of base input, except where a row says otherwise.
  'claude-fable-5-2': { input: 8, output: 40, cachedInput: 0.2, source: "Anthropic docs: What's new in Claude Fable 5.2 (pricing)", asOf: READ },
  'claude-mythos-5-2': { input: 8, output: 40, cachedInput: 0.2, source: "Anthropic docs: What's new in Claude Fable 5.2 (Mythos 5.2 shares Fable 5.2's pricing)", asOf: READ },
  'claude-fable-5-1': { input: 10, output: 50, cachedInput: 0.25, source: ANTHROPIC_PRICING, asOf: READ },
  'claude-mythos-5-1': { input: 10, output: 50, cachedInput: 0.25, source: ANTHROPIC_PRICING, asOf: READ },
  'claude-fable-5': { input: 10, output: 50, cachedInput: 1, source: ANTHROPIC_PRICING, asOf: READ },
  'claude-mythos-5': { input: 10, output: 50, cachedInput: 1, source: ANTHROPIC_PRICING, asOf: READ },
  'claude-mythos-preview': { input: 25, output: 125, cachedInput: 2.5, source: 'Anthropic Project Glasswing announcement as reported (retired 2026-06-30)', asOf: READ },
  'claude-opus-5-5': { input: 4, output: 20, cachedInput: 0.2, source: 'Anthropic docs: Claude Opus 5.5 model page (cache read 5% of input)', asOf: READ },
  'claude-opus-5': { input: 5, output: 25, cachedInput: 0.5, source: ANTHROPIC_PRICING, asOf: READ },
  'claude-opus-4-8': { input: 5, output: 25, cachedInput: 0.5, source: ANTHROPIC_PRICING, asOf: READ },
  'claude-opus-4-7': { input: 5, output: 25, cachedInput: 0.5, source: ANTHROPIC_PRICING, asOf: READ },
  'claude-opus-4-6': { input: 5, output: 25, cachedInput: 0.5, source: ANTHROPIC_PRICING, asOf: READ },
  'claude-opus-4-5': { input: 5, output: 25, cachedInput: 0.5, source: ANTHROPIC_PRICING, asOf: READ },
  'claude-opus-4-1': { input: 15, output: 75, cachedInput: 1.5, source: `${ANTHROPIC_PRICING} (retired on the Claude API)`, asOf: READ },
  'claude-opus-4': { input: 15, output: 75, cachedInput: 1.5, source: `${ANTHROPIC_PRICING} (retired on the Claude API)`, asOf: READ },
  'claude-3-opus': { input: 15, output: 75, cachedInput: 1.5, source: 'Earlier Anthropic pricing (retired 2026-01-05)', asOf: CARRIED },
  'claude-sonnet-5-5': { input: 2, output: 10, cachedInput: 0.2, source: 'Anthropic docs: Claude Sonnet 5.5 model page (no long-context premium)', asOf: READ },
  'claude-sonnet-5': { input: 2, output: 10, cachedInput: 0.2, source: 'Anthropic docs: Claude Sonnet 5 model page', asOf: READ },
  'claude-sonnet-4-6': { input: 3, output: 15, cachedInput: 0.3, source: ANTHROPIC_PRICING, asOf: CARRIED },
  'claude-sonnet-4-5': { input: 3, output: 15, cachedInput: 0.3, source: 'Anthropic docs: Claude Sonnet 4.5 model page (retired 2026-11-30)', asOf: READ },
  'claude-sonnet-4': { input: 3, output: 15, cachedInput: 0.3, source: 'Earlier bundled table (retired 2026-06-15)', asOf: CARRIED },
  'claude-3-7-sonnet': { input: 3, output: 15, cachedInput: 0.3, source: 'Earlier bundled table', asOf: CARRIED },
  'claude-3-5-sonnet': { input: 3, output: 15, cachedInput: 0.3, source: 'Earlier Anthropic pricing (retired)', asOf: CARRIED },
  // Haiku 5.5 bills a prompt over 100,000 tokens at 5x, every rate, for the whole call.
  'claude-haiku-5-5': {
    input: 0.1,
    output: 0.5,
    cachedInput: 0.01,
    tiers: [{ aboveInputTokens: 100_000, input: 0.5, output: 2.5, cachedInput: 0.05 }],
    source: 'Anthropic docs: Claude Haiku 5.5 model page (prompts up to / over 100,000 tokens)',
    asOf: READ,
  },
  'claude-haiku-4-5': { input: 1, output: 5, cachedInput: 0.1, source: 'Anthropic docs: Claude Opus 5.5 model page comparison table (Haiku 4.5)', asOf: READ },
  'claude-3-5-haiku': { input: 0.8, output: 4, cachedInput: 0.08, source: 'Earlier bundled table (retired 2026-02-19)', asOf: CARRIED },
  'claude-3-haiku': { input: 0.25, output: 1.25, cachedInput: 0.03, source: 'Earlier bundled table', asOf: CARRIED },
});

/** The Gemini rows were read on their own day. */
const GEMINI_READ = '2026-12-04';
const GEMINI_PRICING = 'Gemini Developer API pricing, standard tier (read second-hand: pricing guides quoting the page, 2026-07 to 2026-12)';

/**
 * USD per 1M tokens, standard tier; output includes thinking tokens. Gemini 3.7 Flash and 3.6 Flash
 * have no row: no price for them could be read, so their cost is reported as unknown.
 */
const GEMINI_PRICES: Record<string, Price> = {
  'gemini-3.8-flash': {
    input: 0.75,
    output: 3.75,
    cachedInput: 0.075,
    source: 'Gemini 3.8 Flash launch pricing, half price through 2026-12-31, then $1.50 / $7.50 from 2027-01-01 (read second-hand: LiteLLM release notes)',
    asOf: GEMINI_READ,
  },
  'gemini-3.5-flash': { input: 1.5, output: 9, source: `${GEMINI_PRICING} (deprecated: requests are served by Gemini 3.6 Flash)`, asOf: GEMINI_READ },
  'gemini-3.1-pro-preview': { input: 2, output: 12, tiers: [{ aboveInputTokens: 200_000, input: 4, output: 18 }], source: `${GEMINI_PRICING}: prompts up to / over 200,000 tokens`, asOf: GEMINI_READ },
  'gemini-3.1-flash-lite': { input: 0.25, output: 1.5, cachedInput: 0.025, source: GEMINI_PRICING, asOf: GEMINI_READ },
  'gemini-3-flash-preview': { input: 0.5, output: 3, source: GEMINI_PRICING, asOf: GEMINI_READ },
  'gemini-2.5-pro': { input: 1.25, output: 10, tiers: [{ aboveInputTokens: 200_000, input: 2.5, output: 15 }], source: `${GEMINI_PRICING}: prompts up to / over 200,000 tokens`, asOf: GEMINI_READ },
  'gemini-2.5-flash': { input: 0.3, output: 2.5, source: GEMINI_PRICING, asOf: GEMINI_READ },
  'gemini-2.5-flash-lite': { input: 0.1, output: 0.4, source: GEMINI_PRICING, asOf: GEMINI_READ },
};

/** Both providers' batch APIs (OpenAI Batch, Anthropic Message Batches) bill 50% of every standard rate. */
export const BATCH_RATE: Record<string, number> = { openai: 0.5, anthropic: 0.5 };

/**
 * Claude on Amazon Bedrock and on Vertex AI, keyed by Anthropic's ids (each wire's model-id.ts maps
 * the platform's ids to them): third-party comparisons read 2026-12-04 quote the same list prices as
 * Anthropic's on both platforms' global endpoints; the platforms' own price pages were not reached.
 * A regional endpoint (a geography's inference profile on Bedrock, a region on Vertex AI) is billed
 * about 10% more for Claude 4.5 and later models: not applied here (set it under `pricing`).
 */
function onCloud(platform: string): Record<string, Price> {
  const note = `; on ${platform} at the same list price as quoted by third-party comparisons read 2026-12-04 (global endpoint; a regional endpoint costs about 10% more from Claude 4.5 on, not applied)`;
  return Object.fromEntries(Object.entries(ANTHROPIC_PRICES).map(([model, p]) => [model, { ...p, source: `${p.source ?? ANTHROPIC_PRICING}${note}` }]));
}

export const BUNDLED_PRICES: Record<string, Record<string, Price>> = {
  openai: OPENAI_PRICES,
  anthropic: ANTHROPIC_PRICES,
  // The Gemini API's models, called natively (the google provider) or on its OpenAI-compatible endpoint (the gemini preset).
  google: GEMINI_PRICES,
  gemini: GEMINI_PRICES,
  bedrock: onCloud('Amazon Bedrock'),
  vertex: onCloud('Vertex AI'),
};
