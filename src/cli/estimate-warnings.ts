import type { ResolvedConfig } from '../config/load-config.js';
import type { RunFlags } from '../config/run-settings.js';
import { judgeModelUsesOf, staticJudgeModel } from '../judges/judge-model-uses.js';
import { dayOf } from '../providers/model-retirement.js';
import { formatModelSpec, parseModelSpec } from '../providers/model-spec.js';
import { caseTarget } from '../runner/isolation/isolated-target.js';
import { retiredModelWarnings } from '../runner/loop/retired-models.js';
import { runModelCallers } from '../runner/loop/run-model-callers.js';
import { checkWireRefusals } from '../runner/wire-refusals.js';
import type { PlannedCase } from '../suite/plan.js';

/**
 * The shutdown warnings a run of `cases` would print before its first trial (execute-run.ts), read
 * from the plan alone: no target, judge or provider is built, so no key is needed and nothing is called.
 */
export async function plannedShutdownWarnings(config: ResolvedConfig, cases: readonly PlannedCase[], flags: RunFlags, env: NodeJS.ProcessEnv, now: Date): Promise<string[]> {
  const { resolveRunSettings } = await import('../config/run-settings.js');
  const settings = resolveRunSettings(config, flags, env);
  // A dry run calls no model and warns about none.
  if (settings.dryRun) return [];
  const targets = new Map<string, { name: string; model?: string }>();
  for (const c of cases) {
    if (typeof c.target !== 'string' || targets.has(c.target)) continue;
    const { spec } = caseTarget(c, settings.targets);
    targets.set(c.target, { name: c.targetName, ...(typeof spec === 'object' && 'model' in spec ? { model: modelOf(spec.model) } : {}) });
  }
  const judgeUses = judgeModelUsesOf(cases, settings.judging, (one) => staticJudgeModel(one, settings.judging.judges));
  const callers = runModelCallers({ targets: [...targets.values()], judgeUses, cases, judging: settings.judging, users: true });
  return retiredModelWarnings(callers, dayOf(now));
}

/** A model target's `provider:model`; an invalid spec is the run's error, not the estimate's. */
function modelOf(model: unknown): string | undefined {
  try {
    return formatModelSpec(parseModelSpec(model));
  } catch {
    return undefined;
  }
}

/**
 * The settings the API would refuse on every call (wire-refusals.ts) stop an estimate as they stop
 * `run` and `doctor`: exit 2 naming model, API and setting, since the run it prices could not start.
 */
export async function checkPlannedRefusals(config: ResolvedConfig, cases: readonly PlannedCase[], flags: RunFlags, env: NodeJS.ProcessEnv): Promise<void> {
  const { resolveRunSettings } = await import('../config/run-settings.js');
  checkWireRefusals(resolveRunSettings(config, flags, env), cases);
}
