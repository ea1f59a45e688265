import type { TrialResult } from '../../core/results-schema.js';
import type { PlannedCase } from '../../suite/plan.js';
import type { SimulatedUserTally } from './simulated-user.js';

/** A simulated-user trial's result: the user model's tokens as their own usage role, and how the conversation ended. */
export function withSimulatedUser(c: Pick<PlannedCase, 'simulatedUser'>, tally: SimulatedUserTally, t: TrialResult): TrialResult {
  if (!c.simulatedUser) return t;
  return { ...t, usage: { ...t.usage, user: tally.usage }, ...(tally.stopped ? { simulatedUser: { stopped: tally.stopped } } : {}) };
}
