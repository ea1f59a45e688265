import { UserError, UserErrors } from '../core/errors.js';
import { judgeSpecMemo, missingJudgeKeys } from '../judges/judge-keys.js';
import { missingApiKey, parseModelSpec, type ModelSpec } from '../providers/model-spec.js';
import type { PlannedCase } from '../suite/plan.js';
import { caseTargetSpec } from '../suite/target-variants.js';
import type { RunSettings } from './loop/index.js';
import { userModelRef } from './users/index.js';
import { pushAll } from '../core/push-all.js';

/** Cases named in full before the rest are counted. */
const NAMED_CASES = 3;

interface Need {
  targets: Set<string>;
  /** Judge label (which level gave it) → the cases whose judged assertions use it. */
  judges: Map<string, Set<string>>;
}

/**
 * Every API key the selected cases need, checked before any target runs: the model targets they
 * use, the judges their judged assertions resolve to (judges/judge-keys.ts) and, unless `users` is
 * false (a re-judge replays the recorded user messages), the user models of their simulated users.
 * Each missing variable is one error naming who needs it; a user model's is its own error at the
 * eval file's line and field that chose it. A TS `check()`'s judged assertions and a function
 * target's own SDK clients are known only at run time; a missing key fails them there.
 */
export function checkApiKeys(settings: Pick<RunSettings, 'targets' | 'judging' | 'env'>, cases: PlannedCase[], o: { users?: boolean } = {}): void {
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
    const target = caseTargetSpec(c, targets);
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
  if (o.users !== false) pushAll(errors, missingUserModelKeys(settings, cases, judgeSpecs));
  if (errors.length > 0) throw errors.length === 1 ? errors[0]! : new UserErrors(errors);
}

function whoNeeds(n: Need): string {
  const parts = [...n.targets].map((t) => `target "${t}"`);
  for (const [label, keys] of n.judges) {
    parts.push(`the judge${keys.size > 1 ? 's' : ''} of ${caseList([...keys])} (${label})`);
  }
  return parts.join('; ');
}

/**
 * The keys the user models of simulated-user cases need and `env` lacks: one error per variable,
 * file and setting, at the first such case's line, naming the field that chose the model
 * (`simulatedUser.model`, else `simulatedUser` and the judge it fell back to).
 */
function missingUserModelKeys(settings: Pick<RunSettings, 'judging' | 'env'>, cases: readonly PlannedCase[], specOf: ReturnType<typeof judgeSpecMemo>): UserError[] {
  const groups = new Map<string, { first: PlannedCase; variable: string; who: string; field: string; keys: string[] }>();
  for (const c of cases) {
    if (!c.simulatedUser) continue;
    const chosen = userModelRef(c, settings.judging);
    const model = chosen && specOf(chosen.ref, settings.judging.judges);
    const variable = model && missingApiKey(model.spec, settings.env);
    if (!chosen || !variable) continue;
    const named = model.name !== undefined ? ` "${model.name}"` : '';
    const fallback = chosen.origin === 'config judge' && settings.judging.judgeFromEnv ? 'EVALS_JUDGE_PROVIDER / EVALS_JUDGE_MODEL' : chosen.origin;
    const who = chosen.origin === 'simulatedUser.model' ? `the user model${named}` : `the user model (no simulatedUser.model: the ${fallback}${named})`;
    const field = chosen.origin === 'simulatedUser.model' ? 'simulatedUser.model' : 'simulatedUser';
    const group = `${variable}\0${c.file}\0${who}`;
    const g = groups.get(group);
    if (g) g.keys.push(c.key);
    else groups.set(group, { first: c, variable, who, field, keys: [c.key] });
  }
  return [...groups.values()].map(
    (g) => new UserError(`${g.variable} is not set: needed by ${g.who} of ${caseList(g.keys)}`, { file: g.first.file, ...(g.first.line ? { line: g.first.line } : {}), field: g.field }),
  );
}

/** Up to NAMED_CASES case keys, then how many more. */
function caseList(keys: readonly string[]): string {
  const rest = keys.length - NAMED_CASES;
  return keys.slice(0, NAMED_CASES).join(', ') + (rest > 0 ? ` and ${rest} more case${rest > 1 ? 's' : ''}` : '');
}

/** A model target's spec; an invalid one is reported when the target is built. */
export function modelSpecOrUndefined(model: unknown): ModelSpec | undefined {
  try {
    return parseModelSpec(model);
  } catch {
    return undefined;
  }
}
