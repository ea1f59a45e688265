import { isModelCall, type AgentRun } from '../core/agent-run.js';
import { emptyUsage, sumUsage, usageFromTokens, type TokenUsage, type Usage } from '../core/usage.js';
import { priceUsage, PricingWarnings, unpricedMessage, type PriceMode, type PriceTable } from './pricing.js';

export interface Pricing {
  overrides: PriceTable;
  /** Called once per model with no known price. */
  warnUnpriced(model: string | undefined): void;
}

/** A run's pricing: the config's overrides, and `warn` once per model with no known price. */
export function warningPricing(overrides: PriceTable, warn: (message: string) => void): Pricing {
  const unpriced = new PricingWarnings();
  return {
    overrides,
    warnUnpriced(model) {
      if (unpriced.shouldWarn(model ?? '')) warn(unpricedMessage(model));
    },
  };
}

/** Pricing that never warns: for usage the user cannot act on (a recording priced again, a probe). */
export const silentPricing = (overrides: PriceTable): Pricing => ({ overrides, warnUnpriced: () => {} });

/**
 * A target run's usage, priced. Each step with usage is one call priced by its own model (else
 * the run's); a run-level `usage` without step usage counts as one call. Tokens from a model with
 * no known price make the cost null, never 0.
 */
export function usageOfRun(run: AgentRun, pricing: Pricing): Usage {
  const stepped = (run.steps ?? []).filter(isModelCall);
  if (stepped.length === 0) return run.usage ? priced(run.usage, run.model, pricing) : emptyUsage();
  return sumUsage(stepped.map((s) => (s.usage ? priced(s.usage, s.model ?? run.model, pricing) : UNKNOWN_CALL)));
}

/**
 * What a cost budget can count of a run: its priced calls. A call of unknown cost (an unpriced
 * model, a call unanswered at a timeout) adds nothing here, though it makes the reported cost null.
 */
export function knownCostUsd(run: Omit<AgentRun, 'reply'>, pricing: Pricing): number {
  const stepped = (run.steps ?? []).filter((s) => s.usage);
  const calls = stepped.length > 0 ? stepped.map((s) => priced(s.usage!, s.model ?? run.model, pricing)) : run.usage ? [priced(run.usage, run.model, pricing)] : [];
  return calls.reduce((sum, u) => sum + (u.costUsd ?? 0), 0);
}

/** A call sent but never answered within the trial: counted, with tokens and cost unknown. */
const UNKNOWN_CALL: Usage = usageFromTokens({ inputTokens: 0, outputTokens: 0 }, null);

/** Model calls of a run still in flight when it ended (their usage is unknown). */
export function unansweredCalls(run: AgentRun): number {
  return (run.steps ?? []).filter((s) => s.usageUnknown).length;
}

/** One call's usage, priced by its model (at the batch rate for a batch call): zero tokens cost 0; an unpriced model costs null (and warns). */
export function priced(tokens: TokenUsage, model: string | undefined, pricing: Pricing, mode?: PriceMode): Usage {
  if (tokens.inputTokens + tokens.outputTokens === 0) return usageFromTokens(tokens, 0);
  const cost = model ? priceUsage(model, tokens, pricing.overrides, mode) : null;
  if (cost === null) pricing.warnUnpriced(model);
  return usageFromTokens(tokens, cost);
}
