/** Long-prompt price tiers: the rates of one call follow its input size, on the bundled table and on a user's. */
import { describe, expect, it } from 'vitest';
import { ANTHROPIC_PRICES, OPENAI_PRICES } from '../../src/providers/price-table.js';
import { PriceOverridesSchema, priceUsage, ratesFor } from '../../src/providers/pricing.js';

describe('long-prompt tiers', () => {
  it('Claude Haiku 5.5: a prompt of 100,000 tokens pays the base rates, one token more pays the over-100K rates for the whole call', () => {
    expect(priceUsage('anthropic:claude-haiku-5-5', { inputTokens: 100_000, outputTokens: 1_000 })).toBeCloseTo(100_000 * 0.1e-6 + 1_000 * 0.5e-6, 12);
    expect(priceUsage('anthropic:claude-haiku-5-5', { inputTokens: 100_001, outputTokens: 1_000 })).toBeCloseTo(100_001 * 0.5e-6 + 1_000 * 2.5e-6, 12);
  });

  it('counts cache reads and writes in the call size and bills them at the tier rates', () => {
    // 150K input: 100K read from the cache, 20K written (5 minutes), 30K plain.
    const cost = priceUsage('anthropic:claude-haiku-5-5', { inputTokens: 150_000, cachedInputTokens: 100_000, cacheWriteTokens: 20_000, outputTokens: 0 });
    expect(cost).toBeCloseTo(30_000 * 0.5e-6 + 100_000 * 0.05e-6 + 20_000 * 0.625e-6, 12);
  });

  it('GPT-6.1 Terra: over 272K input tokens, 2x input and cached input, 1.5x output', () => {
    const usage = (inputTokens: number) => ({ inputTokens, cachedInputTokens: 100_000, outputTokens: 10_000 });
    expect(priceUsage('openai:gpt-6.1-terra', usage(272_000))).toBeCloseTo(172_000 * 1e-6 + 100_000 * 0.05e-6 + 10_000 * 5e-6, 12);
    expect(priceUsage('openai:gpt-6.1-terra', usage(272_001))).toBeCloseTo(172_001 * 2e-6 + 100_000 * 0.1e-6 + 10_000 * 7.5e-6, 12);
  });

  it('applies the batch rate on top of the tier', () => {
    const full = priceUsage('anthropic:claude-haiku-5-5', { inputTokens: 200_000, outputTokens: 0 })!;
    expect(priceUsage('anthropic:claude-haiku-5-5', { inputTokens: 200_000, outputTokens: 0 }, undefined, { batch: true })).toBeCloseTo(full / 2, 12);
  });

  it('dated ids of a tiered family get the tiers too', () => {
    expect(priceUsage('openai:gpt-5.5-2026-04-23', { inputTokens: 300_000, outputTokens: 0 })).toBeCloseTo(300_000 * 10e-6, 12);
  });

  it("takes the highest tier a call exceeds, from a user's table as from the bundled one", () => {
    const overrides = PriceOverridesSchema.parse({
      'openai:my-model': {
        input: 1,
        output: 2,
        tiers: [
          { aboveInputTokens: 1_000_000, input: 4, output: 8 },
          { aboveInputTokens: 10_000, input: 2, output: 4 },
        ],
      },
    });
    const price = overrides['openai:my-model']!;
    expect(ratesFor(price, 10_000).input).toBe(1);
    expect(ratesFor(price, 10_001).input).toBe(2);
    expect(ratesFor(price, 2_000_000).input).toBe(4);
    expect(priceUsage('openai:my-model', { inputTokens: 20_000, outputTokens: 1_000 }, overrides)).toBeCloseTo(20_000 * 2e-6 + 1_000 * 4e-6, 12);
  });

  it('refuses a misspelt tier field in a user table', () => {
    expect(PriceOverridesSchema.safeParse({ 'openai:x': { input: 1, output: 2, tiers: [{ aboveInput: 5, input: 2, output: 3 }] } }).success).toBe(false);
  });

  it('keeps each tier dearer than the base and gives Anthropic tiers their cache-write rates', () => {
    for (const price of [...Object.values(OPENAI_PRICES), ...Object.values(ANTHROPIC_PRICES)]) {
      for (const tier of price.tiers ?? []) {
        expect(tier.input).toBeGreaterThan(price.input);
        expect(tier.output).toBeGreaterThan(price.output);
      }
    }
    expect(ANTHROPIC_PRICES['claude-haiku-5-5']!.tiers![0]).toMatchObject({ cacheWrite: 0.625, cacheWrite1h: 1 });
  });
});
