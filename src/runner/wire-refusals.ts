import { UserError, UserErrors } from '../core/errors.js';
import type { AgentJudge } from '../judges/agent-judge.js';
import { isJudgeName, judgeModelSpec } from '../judges/judge-ref-check.js';
import { judgeOriginLabel } from '../judges/judge-keys.js';
import { staticJudgedSpecs } from '../judges/judged-specs.js';
import { resolveAssertionJudge } from '../judges/kept-judges.js';
import { singleRefs } from '../judges/panel-judgment.js';
import { isJudgeInstance, type SingleJudgeRef } from '../judges/resolve.js';
import type { ModelSpec } from '../providers/model-spec.js';
import type { SpecUse } from '../providers/wire-descriptor.js';
import { specRefusal } from '../providers/wires.js';
import type { PlannedCase } from '../suite/plan.js';
import type { RunSettings } from './loop/index.js';
import { userModelRef } from './users/index.js';
import { modelSpecOrUndefined } from './api-keys.js';

/**
 * The settings the capability table says the API refuses, checked before any target runs: each
 * model target of the selected cases (with its tools), each judge their judged assertions resolve to
 * (an inference judge asks for a structured answer, an agent judge offers tools) and, unless `targets`
 * is false (a re-judge calls none), the user models of simulated users. Each refusal is an error
 * naming who calls the model, the model, the wire and the setting (exit 2): the API would refuse
 * every call. Judges known only as they run (a factory agent judge) are refused by the API itself.
 */
export function checkWireRefusals(settings: Pick<RunSettings, 'targets' | 'judging' | 'configFile'>, cases: readonly PlannedCase[], o: { targets?: boolean } = {}): void {
  const errors = new Map<string, UserError>();
  const refuse = (spec: ModelSpec, use: SpecUse, who: string, where: { file?: string; field?: string } = {}): void => {
    const refused = specRefusal(spec, use);
    if (refused !== undefined && !errors.has(who + refused)) errors.set(who + refused, new UserError(`${who}: ${refused}`, where));
  };
  const file = settings.configFile ?? undefined;
  const { judges } = settings.judging;

  const judge = (ref: SingleJudgeRef, who: string): void => {
    const target = isJudgeName(ref) ? judges[ref] : ref;
    if (target !== undefined && isJudgeInstance(target)) {
      const agent = target as Partial<AgentJudge>;
      if (agent.kind === 'agent' && agent.modelSpec) refuse(agent.modelSpec, { tools: true, structuredOutput: false }, `${who} (agent judge)`);
      return;
    }
    const model = judgeModelSpec(ref, judges);
    if (model) refuse(model.spec, { tools: false, structuredOutput: true }, who);
  };

  const targetsSeen = new Set<string>();
  for (const c of cases) {
    const name = typeof c.target === 'string' ? c.target : undefined;
    const target = name !== undefined && o.targets !== false ? settings.targets[name] : undefined;
    if (name !== undefined && target && typeof target === 'object' && 'model' in target && !targetsSeen.has(name)) {
      targetsSeen.add(name);
      const spec = modelSpecOrUndefined(target.model);
      if (spec) refuse(spec, { tools: (target.tools?.length ?? 0) > 0, structuredOutput: false }, `target "${name}"`, { ...(file ? { file } : {}), field: `targets.${name}.model` });
    }
    for (const assertion of staticJudgedSpecs(c)) {
      const { override, judge: configJudge, judgeFromEnv } = settings.judging;
      const resolved = resolveAssertionJudge({ ...(override !== undefined ? { override } : {}), assertion: assertion.judge, caseOrSuite: c.judge, config: configJudge }, judges);
      if (!resolved) continue;
      const label = judgeOriginLabel(resolved.origin, judgeFromEnv) + (isJudgeName(resolved.ref) ? ` "${resolved.ref}"` : '');
      for (const one of singleRefs(resolved.ref)) judge(one, label);
    }
    const user = o.targets !== false && c.simulatedUser ? userModelRef(c, settings.judging) : undefined;
    const userModel = user && judgeModelSpec(user.ref, judges);
    if (userModel) refuse(userModel.spec, { tools: false, structuredOutput: false }, `the user model of ${c.key}`, { file: c.file, field: 'simulatedUser' });
  }
  const all = [...errors.values()];
  if (all.length > 0) throw all.length === 1 ? all[0]! : new UserErrors(all);
}
