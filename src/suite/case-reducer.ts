import { UserError } from '../core/errors.js';
import { reducerOf, type Reducer, type ReducerDefaults, type ReducerSetting } from '../core/reducer-setting.js';
import type { AdaptiveRange } from '../core/repeat-setting.js';

/**
 * A case's `passAt` / `passHat`, else its suite's, else the config's (`levels` in that order; a level
 * that sets either overrides both of the ones below). The estimate needs N ≥ k trials run to the end: fewer planned trials, or adaptive trials
 * (which stop on the pass rate and would bias the estimate), are the user's error, not a silent change.
 */
export function caseReducer(levels: ReducerDefaults[], trials: { repeat: number; adaptive?: AdaptiveRange | undefined }, where: { file: string; line: number | null }): Reducer | undefined {
  const at = { file: where.file, ...(where.line !== null ? { line: where.line } : {}) };
  const chosen = levels.reduce<ReturnType<typeof pick>>((found, level) => found ?? pick(level, at), undefined);
  if (!chosen) return undefined;
  const r = reducerOf(chosen.kind, chosen.setting);
  if (trials.adaptive) {
    throw new UserError(`needs a fixed trial count: adaptive trials (repeat: { min, max }) stop on the pass rate, which would bias the estimate; give repeat a number ≥ ${r.k}`, {
      ...at,
      field: chosen.kind,
    });
  }
  if (trials.repeat < r.k) {
    throw new UserError(`${r.k} needs at least ${r.k} trials to estimate from, but this case runs ${trials.repeat} (repeat); set repeat to ${r.k} or more`, {
      ...at,
      field: chosen.kind,
    });
  }
  return r;
}

function pick(s: ReducerDefaults, at: { file: string; line?: number }): { kind: Reducer['kind']; setting: ReducerSetting } | undefined {
  if (s.passAt !== undefined && s.passHat !== undefined) throw new UserError('give "passAt" or "passHat", not both: each decides the verdict on its own', { ...at, field: 'passHat' });
  if (s.passAt !== undefined) return { kind: 'passAt', setting: s.passAt };
  if (s.passHat !== undefined) return { kind: 'passHat', setting: s.passHat };
  return undefined;
}
