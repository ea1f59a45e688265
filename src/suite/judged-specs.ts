import { isJudgeType } from '../judges/spec.js';
import type { PlannedCase } from './plan.js';
import type { TsAssertionSpec } from './schema.js';

/** A case's judged assertions known before the run: its own and its turns' (a TS `check()` adds more at run time). */
export function staticJudgedSpecs(c: PlannedCase): TsAssertionSpec[] {
  return [...c.assertions, ...(c.turns ?? []).flatMap((t) => (t.assert ?? []) as TsAssertionSpec[])].filter((s) => isJudgeType(s.type));
}
