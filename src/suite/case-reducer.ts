import { UserError } from '../core/errors.js';
import { reducerOf, type Reducer, type ReducerDefaults, type ReducerSetting } from '../core/reducer-setting.js';
import type { AdaptiveRange } from '../core/repeat-setting.js';

/**
 * A case's `passAt` / `passHat`, else its suite's, else the config's (`levels` in that order; a level
 * that sets either overrides both of the ones below). Whether its trials can give the estimate is
 * `reducerTrialError`'s question, asked of the cases a run selects.
 */
export function caseReducer(levels: ReducerDefaults[], where: { file: string; line: number | null }): Reducer | undefined {
  const chosen = levels.reduce<ReturnType<typeof pick>>((found, level) => found ?? pick(level, where), undefined);
  return chosen ? reducerOf(chosen.kind, chosen.setting) : undefined;
}

/**
 * The estimate needs N ≥ k trials run to the end: fewer planned trials, or adaptive trials (which stop
 * on the pass rate and would bias the estimate), are the user's error, not a silent change. Asked only
 * of the selected cases: a case `--filter` leaves out runs no trial, so `--repeat 3..30` is no error of its.
 */
export function reducerTrialError(c: { reducer?: Reducer | undefined; repeat: number; adaptive?: AdaptiveRange | undefined; file: string; line: number | null }): UserError | undefined {
  const r = c.reducer;
  if (!r) return undefined;
  const at = { ...whereOf(c), field: r.kind };
  if (c.adaptive) return new UserError(`needs a fixed trial count: adaptive trials (repeat: { min, max }) stop on the pass rate, which would bias the estimate; give repeat a number ≥ ${r.k}`, at);
  if (c.repeat < r.k) return new UserError(`${r.k} needs at least ${r.k} trials to estimate from, but this case runs ${c.repeat} (repeat); set repeat to ${r.k} or more`, at);
  return undefined;
}

const whereOf = (w: { file: string; line: number | null }): { file: string; line?: number } => ({ file: w.file, ...(w.line !== null ? { line: w.line } : {}) });

function pick(s: ReducerDefaults, where: { file: string; line: number | null }): { kind: Reducer['kind']; setting: ReducerSetting } | undefined {
  if (s.passAt !== undefined && s.passHat !== undefined) throw new UserError('give "passAt" or "passHat", not both: each decides the verdict on its own', { ...whereOf(where), field: 'passHat' });
  if (s.passAt !== undefined) return { kind: 'passAt', setting: s.passAt };
  if (s.passHat !== undefined) return { kind: 'passHat', setting: s.passHat };
  return undefined;
}
