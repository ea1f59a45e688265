import { UserError } from '../../core/errors.js';
import { resolvePrice, type PriceTable } from '../../providers/pricing.js';

/** Who may spend money in a run, as far as it is known before the first trial. */
export interface Spenders {
  /** Model targets and judges: `who` names them, `model` is what prices them. */
  priced: Array<{ who: string; model: string }>;
  /** Targets whose models are known only from the usage they report (function, command, HTTP). */
  pricedAtRunTime: string[];
}

/**
 * A cost budget counts only what it can price. Before the run: a spender whose model has no
 * price is named with a warning, and when no spender could ever be priced the budget would do
 * nothing, which is an input error. `where` names the flag or config key that set the budget.
 */
export function checkBudgetPricing(spenders: Spenders, overrides: PriceTable, where: { file?: string; field: string }, warn: (message: string) => void): void {
  const unpriced = spenders.priced.filter((s) => resolvePrice(s.model, overrides) === undefined);
  if (unpriced.length === 0) return;
  const names = unpriced.map((s) => `${s.who} (${s.model})`).join(', ');
  if (unpriced.length === spenders.priced.length && spenders.pricedAtRunTime.length === 0) {
    throw new UserError(`the cost budget cannot be enforced: no price is known for ${names} (add them under \`pricing\` in the config)`, where);
  }
  warn(`${where.field}: no price is known for ${names}: the budget cannot count what they spend (add them under \`pricing\` in the config)`);
}
