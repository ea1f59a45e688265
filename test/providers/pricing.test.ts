import { describe, expect, it } from 'vitest';
import { ANTHROPIC_PRICES, OPENAI_PRICES } from '../../src/providers/price-table.js';
import { ConfigSchema } from '../../src/config/schema.js';
import { OPENAI_EMBEDDING_MODELS } from '../../src/providers/embedding-models.js';
import { modelFamily, PRICES_AS_OF, priceUsage, PricingWarnings, PriceOverridesSchema, resolvePrice, unpricedMessage } from '../../src/providers/pricing.js';

describe('modelFamily', () => {
  it.each([
    ['gpt-4.1-mini-2025-04-14', 'gpt-4.1-mini'],
    ['gpt-4o-2024-08-06', 'gpt-4o'],
    ['o3-2025-04-16', 'o3'],
    ['claude-sonnet-4-5-20250929', 'claude-sonnet-4-5'],
    ['claude-3-5-haiku-latest', 'claude-3-5-haiku'],
    ['claude-3-7-sonnet-20250219', 'claude-3-7-sonnet'],
    ['claude-opus-4-0', 'claude-opus-4'],
    ['gpt-4.1', 'gpt-4.1'],
  ])('%s -> %s', (id, family) => expect(modelFamily(id)).toBe(family));
});

describe('resolvePrice', () => {
  it('prices GPT-6.2 Sol cache writes as its model page lists them ($2.50 per 1M, read 2026-12-04)', () => {
    expect(resolvePrice('openai:gpt-6.2-sol')).toMatchObject({ input: 2, output: 10, cachedInput: 0.1, cacheWrite: 2.5, asOf: '2026-12-04' });
  });

  it('resolves dated ids to their family', () => {
    expect(resolvePrice('openai:gpt-4.1-mini-2025-04-14')).toEqual(OPENAI_PRICES['gpt-4.1-mini']);
    expect(resolvePrice('anthropic:claude-sonnet-4-5-20250929')).toEqual(ANTHROPIC_PRICES['claude-sonnet-4-5']);
    expect(resolvePrice('anthropic:claude-haiku-4-5-20251001')).toMatchObject({ input: 1, output: 5, cachedInput: 0.1, cacheWrite: 1.25, cacheWrite1h: 2 });
  });

  it('prefers an exact dated entry over the family', () => {
    expect(resolvePrice('openai:gpt-4o-2024-05-13')).toMatchObject({ input: 5, output: 15 });
    expect(resolvePrice('openai:gpt-4o-2024-05-13')?.cachedInput).toBeUndefined();
  });

  it('finds a bare model id under any provider', () => {
    expect(resolvePrice('gpt-4.1')).toEqual(OPENAI_PRICES['gpt-4.1']);
    expect(resolvePrice('claude-opus-4-1-20250805')).toEqual(ANTHROPIC_PRICES['claude-opus-4-1']);
  });

  it('does not cross providers when one is named', () => {
    expect(resolvePrice('anthropic:gpt-4.1')).toBeUndefined();
  });

  it('lets a user table add and override models, exact or by family', () => {
    const overrides = {
      'openai:my-finetune': { input: 1, output: 2 },
      'openai:gpt-4.1-mini': { input: 9, output: 9, cachedInput: 9 },
    };
    expect(resolvePrice('openai:my-finetune', overrides)).toEqual({ input: 1, output: 2 });
    expect(resolvePrice('openai:gpt-4.1-mini-2025-04-14', overrides)).toEqual({ input: 9, output: 9, cachedInput: 9 });
    expect(resolvePrice('openai:gpt-4.1', overrides)).toEqual(OPENAI_PRICES['gpt-4.1']);
  });

  it('knows custom providers named in the user table', () => {
    expect(resolvePrice('local:llama-3', { 'local:llama-3': { input: 0, output: 0 } })).toEqual({ input: 0, output: 0 });
  });
});

describe('priceUsage', () => {
  it('bills cached input at the cached rate and the rest at the input rate, exactly', () => {
    // gpt-4.1-mini: 0.40 in, 0.10 cached, 1.60 out per 1M.
    const usage = { inputTokens: 1000, cachedInputTokens: 400, outputTokens: 200 };
    expect(priceUsage('openai:gpt-4.1-mini', usage)).toBe(0.0006);
    // claude-sonnet-4-5: 3 in, 0.30 cached, 15 out.
    expect(priceUsage('anthropic:claude-sonnet-4-5-20250929', { inputTokens: 2_000_000, cachedInputTokens: 1_000_000, outputTokens: 100_000 })).toBe(3 + 0.3 + 1.5);
  });

  it('bills Anthropic cache writes at 1.25x input (5 minutes) and 2x (1 hour), never more writes than uncached input', () => {
    // claude-sonnet-4-6: 3 in, 0.30 cached, 15 out; writes 3.75 and 6.
    const usage = { inputTokens: 1_000_000, cachedInputTokens: 200_000, cacheWriteTokens: 300_000, cacheWrite1hTokens: 100_000, outputTokens: 0 };
    expect(priceUsage('anthropic:claude-sonnet-4-6', usage)).toBe(0.5 * 3 + 0.2 * 0.3 + 0.2 * 3.75 + 0.1 * 6);
    // Inconsistent counts are clamped: writes cannot exceed what was not read from the cache.
    expect(priceUsage('anthropic:claude-sonnet-4-6', { inputTokens: 1_000_000, cachedInputTokens: 900_000, cacheWriteTokens: 500_000, outputTokens: 0 })).toBe(0.9 * 0.3 + 0.1 * 3.75);
    // A user price without cacheWrite bills writes at the input rate (OpenAI has no write charge).
    expect(priceUsage('openai:plain', { inputTokens: 1000, cacheWriteTokens: 1000, outputTokens: 0 }, { 'openai:plain': { input: 2, output: 4 } })).toBe(0.002);
  });

  it('bills cached tokens at the input rate when the model has no cached price', () => {
    const overrides = { 'openai:plain': { input: 2, output: 4 } };
    expect(priceUsage('openai:plain', { inputTokens: 1000, cachedInputTokens: 500, outputTokens: 250 }, overrides)).toBe(0.003);
  });

  it('never counts more cached tokens than input tokens', () => {
    const overrides = { 'openai:plain': { input: 2, output: 0, cachedInput: 1 } };
    expect(priceUsage('openai:plain', { inputTokens: 100, cachedInputTokens: 500, outputTokens: 0 }, overrides)).toBe(0.0001);
  });

  it('bills reasoning tokens as output (they are part of outputTokens)', () => {
    expect(priceUsage('openai:o4-mini', { inputTokens: 0, outputTokens: 1_000_000, reasoningTokens: 900_000 })).toBe(4.4);
  });

  it('is null, never 0, for unknown or missing models', () => {
    const usage = { inputTokens: 10, outputTokens: 10 };
    expect(priceUsage('openai:gpt-99', usage)).toBeNull();
    expect(priceUsage('mystery:model', usage)).toBeNull();
    expect(priceUsage(undefined, usage)).toBeNull();
    expect(priceUsage('openai:gpt-99', { inputTokens: 0, outputTokens: 0 })).toBeNull();
  });

  it('prices zero tokens of a known model at 0', () => {
    expect(priceUsage('openai:gpt-4.1', { inputTokens: 0, outputTokens: 0 })).toBe(0);
  });
});

describe('the bundled table', () => {
  it('is dated', () => expect(PRICES_AS_OF).toMatch(/^\d{4}-\d{2}-\d{2}$/));

  it('has the common OpenAI models, with sane numbers', () => {
    for (const m of ['gpt-4.1', 'gpt-4.1-mini', 'gpt-4.1-nano', 'gpt-4o', 'gpt-4o-mini', 'o3', 'o4-mini', 'gpt-5', 'gpt-5-mini', 'gpt-5-nano']) {
      expect(OPENAI_PRICES[m], m).toBeDefined();
    }
    for (const m of ['claude-opus-4-1', 'claude-opus-4', 'claude-sonnet-4-5', 'claude-sonnet-4', 'claude-3-7-sonnet', 'claude-haiku-4-5', 'claude-3-5-haiku']) {
      expect(ANTHROPIC_PRICES[m], m).toBeDefined();
    }
    // Embedding models bill input tokens only (output 0); every other model's output costs at least its input.
    const embedding = new Set(OPENAI_EMBEDDING_MODELS.map((r) => OPENAI_PRICES[r.model]));
    for (const p of [...Object.values(OPENAI_PRICES), ...Object.values(ANTHROPIC_PRICES)].filter((x) => !embedding.has(x))) {
      expect(p.input).toBeGreaterThan(0);
      expect(p.output).toBeGreaterThanOrEqual(p.input);
      expect(p.cachedInput ?? p.input).toBeLessThanOrEqual(p.input);
    }
  });

  it('validates user tables', () => {
    expect(PriceOverridesSchema.safeParse({ 'openai:x': { input: 1, output: 2 } }).success).toBe(true);
    expect(PriceOverridesSchema.safeParse({ 'no-provider': { input: 1, output: 2 } }).success).toBe(false);
    expect(PriceOverridesSchema.safeParse({ 'openai:x': { input: -1, output: 2 } }).success).toBe(false);
  });

  it("the config's `pricing` is that same table: cache-write prices survive, a misspelt field is an error", () => {
    const entry = { input: 1, output: 2, cacheWrite: 1.25, cacheWrite1h: 2 };
    expect(ConfigSchema.parse({ pricing: { 'anthropic:my-claude': entry } }).pricing).toEqual({ 'anthropic:my-claude': entry });
    expect(ConfigSchema.safeParse({ pricing: { 'anthropic:my-claude': { input: 1, output: 2, cachedinput: 0.1 } } }).success).toBe(false);
  });
});

describe('PricingWarnings', () => {
  it('says to warn the first time a model is seen only', () => {
    const warnings = new PricingWarnings();
    expect(warnings.shouldWarn('openai:gpt-99')).toBe(true);
    expect(warnings.shouldWarn('openai:gpt-99')).toBe(false);
    expect(warnings.shouldWarn('anthropic:claude-x')).toBe(true);
    expect(warnings.shouldWarn('anthropic:claude-x')).toBe(false);
    // What the run then says names the model; a priced model never gets there.
    expect(unpricedMessage('openai:gpt-99')).toContain('openai:gpt-99');
    expect(priceUsage('openai:gpt-4.1', { inputTokens: 1, outputTokens: 1 }, undefined)).toBeGreaterThan(0);
  });
});
