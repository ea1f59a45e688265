import { errorMessage } from '../core/errors.js';
import { parseModelSpec, type ModelSpec } from '../providers/model-spec.js';
import { isFakeRef, isJudgeInstance, type JudgeRef } from './resolve.js';
import { splitJudgeSystem } from './judge-system.js';
import { isPanelRef, panelProblem } from './panel-spec.js';

/** A string that names a judge of the config's `judges` (not `provider:model`, not `fake`). */
export function isJudgeName(ref: unknown): ref is string {
  return typeof ref === 'string' && !ref.includes(':') && ref !== 'fake';
}

export function unknownJudgeMessage(name: string, judges: Record<string, unknown>): string {
  const known = Object.keys(judges);
  return `unknown judge "${name}" (${known.length ? `configured: ${known.join(', ')}` : 'add it under `judges` in the config'})`;
}

/**
 * What is wrong with a judge reference, checked before the run so the error can point at whoever
 * wrote it (flag, config or eval file). `judges` is the config's named judges; without it (inside
 * `judges` itself) a name is not allowed.
 */
export function judgeRefProblem(ref: unknown, judges: Record<string, unknown> | undefined): string | undefined {
  if (isJudgeInstance(ref)) return undefined;
  if (isPanelRef(ref)) return panelProblem(ref, (member) => judgeRefProblem(member, judges));
  if (isJudgeName(ref)) {
    if (judges === undefined) return `"${ref}" names a judge; give a model ("provider:model"), a model spec object, "fake" or a judge object`;
    return Object.hasOwn(judges, ref) ? undefined : unknownJudgeMessage(ref, judges);
  }
  if (isFakeRef(ref as JudgeRef)) return undefined;
  const { model, problem } = splitJudgeSystem(ref);
  if (problem) return problem;
  try {
    parseModelSpec(model);
    return undefined;
  } catch (err) {
    return errorMessage(err);
  }
}

/**
 * The model a reference calls (a name looked up in `judges`), for the API-key check; undefined for
 * the fake judge, a judge object (it brings its own model) and a reference that is not valid.
 */
export function judgeModelSpec(ref: unknown, judges: Record<string, unknown>): { spec: ModelSpec; name?: string } | undefined {
  const name = isJudgeName(ref) ? ref : undefined;
  const target = name !== undefined ? judges[name] : ref;
  if (target === undefined || isJudgeInstance(target) || isJudgeName(target) || isFakeRef(target as JudgeRef)) return undefined;
  try {
    return { spec: parseModelSpec(splitJudgeSystem(target).model), ...(name !== undefined ? { name } : {}) };
  } catch {
    return undefined;
  }
}
