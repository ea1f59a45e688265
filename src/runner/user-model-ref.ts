import type { JudgeRef } from '../judges/resolve.js';
import type { JudgeSettings } from '../judges/settings.js';
import type { PlannedCase } from '../suite/plan.js';

/** Where a case's user model came from: its own `simulatedUser.model`, else the case's (or suite's) judge, else the config's. */
export type UserModelOrigin = 'simulatedUser.model' | 'case or suite judge' | 'config judge';

/**
 * The user model a simulated-user case asks for, and which setting gave it: `simulatedUser.model`,
 * else the case's judge, else the config's (`--judge` is for judges and does not change it).
 * The run (user-model.ts) and the key check before it (api-keys.ts) read the same fallback here.
 */
export function userModelRef(c: Pick<PlannedCase, 'simulatedUser' | 'judge'>, judging: Pick<JudgeSettings, 'judge'>): { ref: JudgeRef; origin: UserModelOrigin } | undefined {
  if (c.simulatedUser?.model !== undefined) return { ref: c.simulatedUser.model, origin: 'simulatedUser.model' };
  if (c.judge !== undefined) return { ref: c.judge, origin: 'case or suite judge' };
  if (judging.judge !== undefined) return { ref: judging.judge, origin: 'config judge' };
  return undefined;
}
