import { isJudgeName } from '../../judges/judge-ref-check.js';
import { isFakeRef, type JudgeRef } from '../../judges/resolve.js';
import type { JudgeSettings } from '../../judges/settings.js';
import type { PlannedCase } from '../../suite/plan.js';

/** Where a case's user model came from: its own `simulatedUser.model`, else the case's (or suite's) judge, else the config's. */
export type UserModelOrigin = 'simulatedUser.model' | 'case or suite judge' | 'config judge';

/**
 * The user model a simulated-user case asks for, and which setting gave it: `simulatedUser.model`,
 * else the case's judge, else the config's (`--judge` is for judges and does not change it).
 * The run (user-model.ts) and the key check before it (runner/api-keys.ts) read the same fallback here.
 */
export function userModelRef(c: Pick<PlannedCase, 'simulatedUser' | 'judge'>, judging: Pick<JudgeSettings, 'judge'>): { ref: JudgeRef; origin: UserModelOrigin } | undefined {
  if (c.simulatedUser?.model !== undefined) return { ref: c.simulatedUser.model, origin: 'simulatedUser.model' };
  if (c.judge !== undefined) return { ref: c.judge, origin: 'case or suite judge' };
  if (judging.judge !== undefined) return { ref: judging.judge, origin: 'config judge' };
  return undefined;
}

/** The fixtures file of a `fake` user model given with fixtures (a path from the config's folder), else undefined. */
export function fakeFixturesOf(ref: JudgeRef | undefined): string | undefined {
  return ref !== undefined && isFakeRef(ref) && typeof ref === 'object' && 'fixtures' in ref && typeof ref.fixtures === 'string' ? ref.fixtures : undefined;
}

/** What `written` stands for: a judge of the config's `judges` when it names one (undefined when that name is not there), else itself. */
export function namedUserModel(written: JudgeRef, judges: JudgeSettings['judges']): JudgeRef | undefined {
  return isJudgeName(written) ? judges[written] : written;
}
