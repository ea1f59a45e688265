import type { ResolvedConfig } from '../config/load-config.js';
import { judgeModelSpec } from '../judges/judge-ref-check.js';
import { formatModelSpec } from '../providers/model-spec.js';
import type { PlannedUser } from '../runner/estimate/estimate-user.js';
import { userModelRef } from '../runner/users/user-model-ref.js';
import type { PlannedCase } from '../suite/plan.js';

/** A simulated-user case's user model as the estimate prices it: the model the run would ask (same fallback) and its `maxTurns`. */
export function plannedUser(c: PlannedCase, config: Pick<ResolvedConfig, 'judge' | 'judges'>): PlannedUser {
  const chosen = userModelRef(c, { judge: config.judge });
  const spec = chosen && judgeModelSpec(chosen.ref, config.judges);
  return { model: spec ? formatModelSpec(spec.spec) : undefined, maxTurns: c.simulatedUser?.maxTurns ?? 0 };
}
