import { parseModelSpec } from '../../providers/model-spec.js';
import { hasShutDown, retirementOf, type Retirement } from '../../providers/model-retirement.js';

/** A model a run will call (`provider:model`) and who calls it, as the warning names them. */
export interface ModelCaller {
  model: string;
  who: string;
}

/**
 * One warning per model whose shutdown day (per the tables) is `today` or earlier, naming the day,
 * where the date was read and everyone who calls it. A warning only: the table may be behind the
 * provider, and a model still served answers as before. Pure: the run passes its own clock.
 */
export function retiredModelWarnings(callers: readonly ModelCaller[], today: string, retirement: (model: string) => Retirement | undefined = retirementOfRef): string[] {
  const byModel = new Map<string, { retired: Retirement; who: string[] }>();
  for (const { model, who } of callers) {
    let entry = byModel.get(model);
    if (!entry) {
      const retired = retirement(model);
      if (!retired || !hasShutDown(retired, today)) continue;
      byModel.set(model, (entry = { retired, who: [] }));
    }
    if (!entry.who.includes(who)) entry.who.push(who);
  }
  return [...byModel].map(
    ([model, { retired, who }]) =>
      `${model} shut down on ${retired.shutdown} (capability table: ${retired.source}, read ${retired.asOf}); used by ${who.join('; ')}: the run goes on, but its calls may fail (404) if the provider no longer serves it`,
  );
}

function retirementOfRef(model: string): Retirement | undefined {
  try {
    return retirementOf(parseModelSpec(model));
  } catch {
    return undefined;
  }
}
