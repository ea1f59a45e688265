import { UserError, UserErrors } from '../core/errors.js';
import { judgeModelSpec } from '../judges/judge-ref-check.js';
import { resolveAssertionJudge } from '../judges/kept-judges.js';
import type { JudgeOrigin, JudgeRef } from '../judges/resolve.js';
import { apiKeyEnvOf, apiKeyRequired, parseModelSpec, type ModelSpec } from '../providers/model-spec.js';
import type { PlannedCase } from '../suite/plan.js';
import { staticJudgedSpecs } from '../suite/judged-specs.js';
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
 * use and the judges their judged assertions resolve to. Each missing variable is one error naming
 * who needs it. A TS `check()`'s judged assertions and a function target's own SDK clients are
 * known only at run time; a missing key fails them there.
 */
export function checkApiKeys(settings: Pick<RunSettings, 'targets' | 'judging' | 'env'>, cases: PlannedCase[]): void {
  const { targets, env } = settings;
  const { judge, judges, override } = settings.judging;
  const needs = new Map<string, Need>();
  const need = (spec: ModelSpec): Need | undefined => {
    const name = apiKeyEnvOf(spec);
    // A local server (Ollama, vLLM, LM Studio) needs no key unless the spec names one.
    if (!apiKeyRequired(spec) || env[name]?.trim()) return undefined;
    let n = needs.get(name);
    if (!n) needs.set(name, (n = { targets: new Set(), judges: new Map() }));
    return n;
  };

  for (const c of cases) {
    const target = typeof c.target === 'string' ? targets[c.target] : undefined;
    if (target && typeof target === 'object' && 'model' in target) {
      const spec = modelSpecOrUndefined(target.model);
      if (spec) need(spec)?.targets.add(c.targetName);
    }
    for (const assertion of staticJudgedSpecs(c)) {
      const resolved = resolveAssertionJudge({ ...(override !== undefined ? { override } : {}), assertion: (assertion as { judge?: JudgeRef }).judge, caseOrSuite: c.judge, config: judge }, judges);
      const model = resolved && judgeModelSpec(resolved.ref, judges);
      if (!resolved || !model) continue;
      const needing = need(model.spec)?.judges;
      if (!needing) continue;
      const label = originLabel(resolved.origin, settings.judging.judgeFromEnv) + (model.name !== undefined ? ` "${model.name}"` : '');
      let keys = needing.get(label);
      if (!keys) needing.set(label, (keys = new Set()));
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

function originLabel(origin: JudgeOrigin, judgeFromEnv: boolean): string {
  switch (origin) {
    case 'override':
      return '--judge';
    case 'assertion':
      return 'assertion judge';
    case 'checkApi':
      return 't.useJudge';
    case 'caseOrSuite':
      return 'case or suite judge';
    case 'config':
      return judgeFromEnv ? 'EVALS_JUDGE_PROVIDER / EVALS_JUDGE_MODEL' : 'config judge';
  }
}

/** A model target's spec; an invalid one is reported when the target is built. */
function modelSpecOrUndefined(model: unknown): ModelSpec | undefined {
  try {
    return parseModelSpec(model);
  } catch {
    return undefined;
  }
}
