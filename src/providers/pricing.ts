import { z } from 'zod';
import type { TokenUsage } from '../core/usage.js';
import { boundedMemo } from '../core/bounded-memo.js';
import { modelFamily } from './model-family.js';
import { BATCH_RATE, BUNDLED_PRICES, PRICES_AS_OF, PriceSchema, type Price, type PriceTier } from './price-table.js';
import { isProviderId, providerDescriptor } from './registry.js';
import { tableModelOf } from './wires.js';

export { modelFamily, PRICES_AS_OF, PriceSchema, type Price };

/** The user's price table, keyed `provider:model` (e.g. `openai:my-finetune`), checked before the bundled one. */
export const PriceOverridesSchema = z.record(z.string().regex(/^[A-Za-z0-9_-]+:.+$/, 'expected a "provider:model" key'), PriceSchema);
export type PriceTable = Record<string, Price>;
export type PriceOverrides = PriceTable;

function splitSpec(modelSpec: string, overrides: PriceOverrides): { provider: string | undefined; model: string } {
  const colon = modelSpec.indexOf(':');
  const prefix = colon > 0 ? modelSpec.slice(0, colon) : '';
  // Only a known provider counts as a prefix: fine-tuned ids (`ft:gpt-4o-mini:org::id`) have colons of their own.
  const known = isProviderId(prefix) || prefix in BUNDLED_PRICES || Object.keys(overrides).some((k) => k.startsWith(`${prefix}:`));
  return known && prefix ? { provider: prefix, model: modelSpec.slice(colon + 1) } : { provider: undefined, model: modelSpec };
}

/**
 * The price of `provider:model` (a bare model id is looked up under every provider). The exact id
 * wins over its family, and the user's table over the bundled one.
 */
export function resolvePrice(modelSpec: string, overrides: PriceOverrides = NO_OVERRIDES): Price | undefined {
  // Every call of a run is priced, and a run calls few models: each is looked up once per table.
  let known = resolved.get(overrides);
  if (!known) resolved.set(overrides, (known = boundedMemo<string, Price | null>(MAX_RESOLVED)));
  return known(modelSpec, () => lookUpPrice(modelSpec, overrides) ?? null) ?? undefined;
}

const NO_OVERRIDES: PriceOverrides = Object.freeze({});
/** Prices found (null: none) by model spec, per price table (a run's overrides object). */
const resolved = new WeakMap<PriceOverrides, (modelSpec: string, lookUp: () => Price | null) => Price | null>();
const MAX_RESOLVED = 1024;

function lookUpPrice(modelSpec: string, overrides: PriceOverrides): Price | undefined {
  const { provider, model } = splitSpec(modelSpec.trim(), overrides);
  const providers = provider ? [provider] : Object.keys(BUNDLED_PRICES);
  const family = modelFamily(model);
  for (const p of providers) {
    const hit = overrides[`${p}:${model}`] ?? overrides[`${p}:${family}`];
    if (hit) return hit;
  }
  for (const p of providers) {
    const table = BUNDLED_PRICES[p];
    // A platform's own spelling of another provider's model (Claude on Bedrock) is priced under that model's id.
    const id = isProviderId(p) ? tableModelOf(p, model).model : model;
    const hit = table?.[id] ?? table?.[modelFamily(id)];
    if (hit) return hit;
  }
  // A server on the user's machine (Ollama, vLLM, LM Studio) bills nothing.
  if (provider && isProviderId(provider) && providerDescriptor(provider).local) return LOCAL_PRICE;
  return undefined;
}

const LOCAL_PRICE: Price = { input: 0, output: 0 };

/** How a call was made: `batch` through the provider's batch API, billed at its batch rate. */
export interface PriceMode {
  batch?: boolean;
}

/** The rates one call pays: the highest long-prompt tier its input exceeds, else the base price. */
export function ratesFor(price: Price, inputTokens: number): Price | PriceTier {
  let tier: PriceTier | undefined;
  for (const t of price.tiers ?? []) {
    if (inputTokens > t.aboveInputTokens && (!tier || t.aboveInputTokens > tier.aboveInputTokens)) tier = t;
  }
  return tier ?? price;
}

/**
 * USD cost of one usage (one call): cached input at `cachedInput` (else `input`), cache writes at
 * `cacheWrite` (1-hour ones at `cacheWrite1h`), the rest of the input at `input`, output at `output`,
 * all at the long-prompt tier the call's input size reaches; through a batch API, all of it at the
 * batch rate. Null, never 0, when the model has no known price. Rounded to 1e-12 USD so float noise
 * does not show up in reports.
 */
export function priceUsage(modelSpec: string | undefined, usage: TokenUsage, overrides?: PriceOverrides, mode: PriceMode = {}): number | null {
  if (!modelSpec) return null;
  const found = resolvePrice(modelSpec, overrides);
  if (!found) return null;
  const rate = mode.batch ? batchRate(modelSpec, found) : 1;
  const price = ratesFor(found, usage.inputTokens);
  const cached = Math.min(usage.cachedInputTokens ?? 0, usage.inputTokens);
  const writes = Math.min(usage.cacheWriteTokens ?? 0, usage.inputTokens - cached);
  const longWrites = Math.min(usage.cacheWrite1hTokens ?? 0, writes);
  const plain = usage.inputTokens - cached - writes;
  const writeRate = price.cacheWrite ?? price.input;
  const micro =
    plain * price.input + cached * (price.cachedInput ?? price.input) + (writes - longWrites) * writeRate + longWrites * (price.cacheWrite1h ?? writeRate) + usage.outputTokens * price.output;
  return Math.round(((micro * rate) / 1_000_000) * 1e12) / 1e12;
}

/** The fraction of a price a batch call pays: the price's own `batch`, else its provider's (else full price). */
export function batchRate(modelSpec: string, price: Price): number {
  if (price.batch !== undefined) return price.batch;
  const colon = modelSpec.indexOf(':');
  return (colon > 0 ? BATCH_RATE[modelSpec.slice(0, colon)] : undefined) ?? 1;
}

/** Remembers which unpriced models were already warned about, so a run warns once per model. */
export class PricingWarnings {
  readonly #warned = new Set<string>();

  /** True the first time `modelSpec` is seen (the caller should warn then), false afterwards. */
  shouldWarn(modelSpec: string): boolean {
    if (this.#warned.has(modelSpec)) return false;
    this.#warned.add(modelSpec);
    return true;
  }
}

export function unpricedMessage(modelSpec: string | undefined): string {
  if (!modelSpec) return 'token usage reported without a model: its cost is reported as unknown (set `model` on the AgentRun)';
  return `no price known for model ${modelSpec} (price table of ${PRICES_AS_OF}): its cost is reported as unknown (add it under \`pricing\` in the config)`;
}
