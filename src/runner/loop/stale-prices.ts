import type { Price } from '../../providers/price-table.js';
import type { ModelCaller } from './retired-models.js';

/**
 * One warning per model whose price row says it may be stale (`mayBeStale`: a promotion the docs
 * date), naming both figures, the date and who calls it: its costs (and a `maxCostUsd` budget) may
 * be off. A user's `pricing` entry for the model replaces the row, and the warning with it. Pure:
 * the run passes its price lookup.
 */
export function stalePriceWarnings(callers: readonly ModelCaller[], priceOf: (model: string) => Price | undefined): string[] {
  const byModel = new Map<string, { price: Price & Required<Pick<Price, 'mayBeStale'>>; who: string[] }>();
  for (const { model, who } of callers) {
    let entry = byModel.get(model);
    if (!entry) {
      const price = priceOf(model);
      if (!price?.mayBeStale) continue;
      byModel.set(model, (entry = { price: price as Price & Required<Pick<Price, 'mayBeStale'>>, who: [] }));
    }
    if (!entry.who.includes(who)) entry.who.push(who);
  }
  return [...byModel].map(([model, { price, who }]) => {
    const { goodUntil, otherwise, note } = price.mayBeStale;
    const read = price.source ? ` (price table: ${price.source}${price.asOf ? `, read ${price.asOf}` : ''})` : '';
    return (
      `${model}: its price $${price.input}/$${price.output} per 1M input/output tokens may be stale: documented only until ${goodUntil} (${note}: $${otherwise.input}/$${otherwise.output})${read}; ` +
      `used by ${who.join('; ')}: costs are counted at $${price.input}/$${price.output} (set \`pricing\` in the config to count another figure)`
    );
  });
}
