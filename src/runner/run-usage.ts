import type { AgentRun } from '../trace/agent-run.js';
import { addUsage, emptyUsage, usageFromTokens, type TokenUsage, type Usage } from '../trace/usage.js';
import { priceUsage, type PriceTable } from '../providers/pricing.js';

export interface Pricing {
  overrides: PriceTable;
  /** Called once per model with no known price. */
  warnUnpriced(model: string | undefined): void;
}

/**
 * A target run's usage, priced. Each step with usage is one call priced by its own model (else
 * the run's); a run-level `usage` without step usage counts as one call. Tokens from a model with
 * no known price make the cost null, never 0.
 */
export function usageOfRun(run: AgentRun, pricing: Pricing): Usage {
  const stepped = (run.steps ?? []).filter((s) => s.usage);
  if (stepped.length === 0) return run.usage ? priced(run.usage, run.model, pricing) : emptyUsage();
  return addUsage(...stepped.map((s) => priced(s.usage!, s.model ?? run.model, pricing)));
}

/** One call's usage, priced by its model: zero tokens cost 0; an unpriced model costs null (and warns). */
export function priced(tokens: TokenUsage, model: string | undefined, pricing: Pricing): Usage {
  if (tokens.inputTokens + tokens.outputTokens === 0) return usageFromTokens(tokens, 0);
  const cost = model ? priceUsage(model, tokens, pricing.overrides) : null;
  if (cost === null) pricing.warnUnpriced(model);
  return usageFromTokens(tokens, cost);
}
