import { UserError, UserErrors } from '../core/errors.js';
import { judgeSpecMemo, missingJudgeKeys } from '../judges/judge-keys.js';
import { missingApiKey, parseModelSpec, type ModelSpec } from '../providers/model-spec.js';
import type { PlannedCase } from '../suite/plan.js';
import type { RunSettings } from './settings.js';

/** Cases named in full before the rest are counted. */
const NAMED_CASES = 3;

interface Need {
  targets: Set<string>;
  /** Judge label (which level gave it) → the cases whose judged assertions use it. */
  judges: Map<string, Set<string>>;
}

/**
 * Every API key the selected cases need, checked before any target runs: the model targets they
 * use and the judges their judged assertions resolve to (judges/judge-keys.ts). Each missing
 * variable is one error naming who needs it. A TS `check()`'s judged assertions and a function
 * target's own SDK clients are known only at run time; a missing key fails them there.
 */
export function checkApiKeys(settings: Pick<RunSettings, 'targets' | 'judging' | 'env'>, cases: PlannedCase[]): void {
  const { targets, env } = settings;
  const needs = new Map<string, Need>();
  const need = (variable: string): Need => {
    let n = needs.get(variable);
    if (!n) needs.set(variable, (n = { targets: new Set(), judges: new Map() }));
    return n;
  };

  // Thousands of cases share a few targets and judges: each model spec is parsed once.
  const targetVariables = new Map<string, string | undefined>();
  const judgeSpecs = judgeSpecMemo();
  for (const c of cases) {
    const target = typeof c.target === 'string' ? targets[c.target] : undefined;
    if (target && typeof target === 'object' && 'model' in target) {
      const name = c.target as string;
      let variable = targetVariables.get(name);
      if (!targetVariables.has(name)) {
        const spec = modelSpecOrUndefined(target.model);
        targetVariables.set(name, (variable = spec && missingApiKey(spec, env)));
      }
      if (variable) need(variable).targets.add(c.targetName);
    }
    for (const { variable, judge } of missingJudgeKeys(settings.judging, env, c, judgeSpecs)) {
      const needing = need(variable).judges;
      let keys = needing.get(judge);
      if (!keys) needing.set(judge, (keys = new Set()));
      keys.add(c.key);
    }
  }

  const errors = [...needs].map(([name, n]) => new UserError(`${name} is not set: needed by ${whoNeeds(n)}`));
  if (errors.length > 0) throw errors.length === 1 ? errors[0]! : new UserErrors(errors);
}

function whoNeeds(n: Need): string {
  const parts = [...n.targets].map((t) => `target "${t}"`);
  for (const [label, keys] of n.judges) {
    const list = [...keys];
    const shown = list.slice(0, NAMED_CASES).join(', ');
    const rest = list.length - NAMED_CASES;
    parts.push(`the judge${list.length > 1 ? 's' : ''} of ${shown}${rest > 0 ? ` and ${rest} more case${rest > 1 ? 's' : ''}` : ''} (${label})`);
  }
  return parts.join('; ');
}

/** A model target's spec; an invalid one is reported when the target is built. */
function modelSpecOrUndefined(model: unknown): ModelSpec | undefined {
  try {
    return parseModelSpec(model);
  } catch {
    return undefined;
  }
}
