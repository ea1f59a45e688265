import { UserError, errorMessage } from '../core/errors.js';
import type { AgentJudge } from '../judges/agent-judge.js';
import { isJudgeName, judgeModelSpec } from '../judges/judge-ref-check.js';
import { spendingSimilarTo } from '../judges/embedding-check.js';
import { userModelRef } from '../runner/users/user-model-ref.js';
import { isFakeRef, isJudgeInstance, type JudgeRef, type SingleJudgeRef } from '../judges/resolve.js';
import { isPanelRef } from '../judges/panel-spec.js';
import { splitJudgeSystem } from '../judges/judge-system.js';
import { parseModelSpec, type ModelSpec } from '../providers/model-spec.js';
import type { PlannedCase } from '../suite/plan.js';
import { caseTargetSpec } from '../suite/target-variants.js';
import { staticJudgedSpecs } from '../judges/judged-specs.js';
import type { ResolvedConfig } from './load-config.js';
import { TARGET_KINDS, targetKindIndex } from '../targets/config-schema.js';
import { isTool, providerToolOf } from '../targets/tool.js';
import type { ProviderTool } from '../providers/types.js';
import type { SpecUse } from '../providers/wire-descriptor.js';

/** One model a run of the config would call, once per endpoint, with everyone who calls it. */
export interface ModelUse {
  spec: ModelSpec;
  /** Who calls it, in words: `target "x"`, `judge`, `judge "name"`, `judge in <file>`, `matrix variant ...`. */
  users: string[];
  /** The first inference-judge reference that calls it (its structured answer is checked live); none when no inference judge does. */
  judgeRef?: SingleJudgeRef;
  /** A `similarTo` embedding model: called with embeddings requests only. */
  embeddings?: true;
  /** An agent judge's own `options.env`: where its calls read the key (else the process environment). */
  env?: NodeJS.ProcessEnv;
  /** The function tools the first caller that offers any sends (a model-agent target's, an agent judge's): `--live` offers them too. */
  tools?: ProviderTool[];
}

/** How the run's requests use the model: with tools when a caller offers any, a structured answer when an inference judge calls it. */
export function specUseOf(use: Pick<ModelUse, 'tools' | 'judgeRef'>): SpecUse {
  return { tools: use.tools !== undefined, structuredOutput: use.judgeRef !== undefined };
}

/** The config's models, and who calls models that are known only as they run (`notes`). */
export interface ConfigModels {
  models: ModelUse[];
  notes: string[];
}

/**
 * Every model a run of `config` (with the planned `cases` of its eval files) would call: model
 * targets, the default judge, the named judges (an agent judge's own model included), judges named
 * in eval files, the targets of matrix variants, the user models of simulated users and the embedding
 * models of `similarTo` (the same ones the run's shutdown warnings name). Function, command and HTTP targets and judge
 * objects of other kinds call models of their own, known only as they run: they are `notes`.
 */
export function configModels(
  config: Pick<ResolvedConfig, 'file' | 'targets' | 'judge' | 'judgeFromEnv' | 'judges' | 'embeddingModel'> & Partial<Pick<ResolvedConfig, 'redteam' | 'generate'>>,
  cases: readonly PlannedCase[],
): ConfigModels {
  const file = config.file ?? undefined;
  const byKey = new Map<string, ModelUse>();
  const notes: string[] = [];
  const envIds = new Map<NodeJS.ProcessEnv, number>();
  const add = (spec: ModelSpec, user: string, judgeRef?: SingleJudgeRef, how: Pick<ModelUse, 'embeddings' | 'env'> = {}, tools: ProviderTool[] = []): void => {
    // Another environment (an agent judge's own) may hold another key: a check of its own.
    const envId = how.env ? (envIds.get(how.env) ?? envIds.set(how.env, envIds.size + 1).get(how.env)) : 0;
    const key = JSON.stringify([endpointKey(spec), how.embeddings ?? false, envId]);
    let use = byKey.get(key);
    if (!use) byKey.set(key, (use = { spec, users: [], ...how }));
    if (!use.users.includes(user)) use.users.push(user);
    if (judgeRef !== undefined) use.judgeRef ??= judgeRef;
    if (tools.length > 0) use.tools ??= tools;
  };
  const note = (text: string) => {
    if (!notes.includes(text)) notes.push(text);
  };

  for (const [name, target] of Object.entries(config.targets)) {
    if (typeof target === 'object' && 'model' in target) {
      add(specOf(target.model, { file, field: `targets.${name}.model` }), `target "${name}"`, undefined, {}, (target.tools ?? []).filter(isTool).map(providerToolOf));
    } else note(`target "${name}": ${targetKind(target)}: the models it calls are known only as it runs`);
  }

  /** A judge reference (a name resolved through `judges`) as `user` calls it. */
  const addJudge = (ref: JudgeRef | undefined, user: string): void => {
    if (ref === undefined) return;
    if (isJudgeName(ref)) return addJudge(config.judges[ref], user);
    if (isPanelRef(ref)) return ref.panel.forEach((member) => addJudge(member, `${user} (panel)`));
    if (isJudgeInstance(ref)) {
      const agent = (ref as Partial<AgentJudge>).kind === 'agent';
      // Its own spec, endpoint and key variable included: doctor checks what its calls will use.
      const spec = agent ? (ref as AgentJudge).modelSpec : undefined;
      const env = agent ? (ref as AgentJudge).ownEnv() : undefined;
      if (spec) add(spec, `${user} (agent judge${env ? ', key from its options.env' : ''})`, undefined, env ? { env } : {}, (ref as AgentJudge).offeredTools());
      else note(`${user}: ${agent ? 'an agent judge built by a function: its model is known only as it runs' : 'a judge object: the models it calls are its own, known only as it runs'}`);
      return;
    }
    if (isFakeRef(ref)) return note(`${user}: the fake judge (offline, no model)`);
    // References were checked when the config and the eval files loaded.
    add(specOf(splitJudgeSystem(ref).model, { file }), user, ref);
  };

  addJudge(config.judge, config.judgeFromEnv ? 'judge (EVALS_JUDGE_PROVIDER / EVALS_JUDGE_MODEL)' : 'judge');
  for (const [name, ref] of Object.entries(config.judges)) addJudge(ref, `judge "${name}"`);
  // The commands' own models (unset, each falls back to the judge, listed above): checked like any other.
  if (config.redteam?.attacker !== undefined) add(specOf(config.redteam.attacker, { file, field: 'redteam.attacker' }), 'redteam attacker (redteam.attacker)');
  if (config.generate?.model !== undefined) add(specOf(config.generate.model, { file, field: 'generate.model' }), 'case generator (generate.model)');

  for (const c of cases) {
    if (typeof c.target !== 'string') note(`an inline function target in ${c.file}: the models it calls are known only as it runs`);
    const target = caseTargetSpec(c, config.targets);
    if (c.matrix && target && typeof target === 'object' && 'model' in target) {
      const values = Object.entries(c.matrix)
        .map(([k, v]) => `${k}=${v}`)
        .join(', ');
      add(specOf(target.model, { file, field: `targets.${c.variant?.target ?? c.targetName}.model` }), `matrix variant ${values} (suite ${c.suite})`);
    }
    for (const ref of [c.judge, ...staticJudgedSpecs(c).map((s) => s.judge)]) {
      // A name is the config's judge, listed above under its name.
      if (ref !== undefined && !isJudgeName(ref)) addJudge(ref, `judge in ${c.file}`);
    }
    addUserModel(c);
    // Checked at load (a model that embeds); `fake` spends nothing and is left out, as the run's warnings do.
    for (const { spec, model } of spendingSimilarTo(c, config.embeddingModel)) {
      add(
        specOf(model, { file: spec.model !== undefined ? c.file : file, field: spec.model !== undefined ? 'model' : 'embeddingModel' }),
        spec.model !== undefined ? `similarTo in ${c.file} (model)` : `similarTo in ${c.file} (embeddingModel of the config)`,
        undefined,
        { embeddings: true },
      );
    }
  }

  /** A simulated user's model (runner/users/user-model-ref.ts: its own, else the judge it falls back to), as the run asks it. */
  function addUserModel(c: PlannedCase): void {
    const chosen = c.simulatedUser ? userModelRef(c, { judge: config.judge }) : undefined;
    if (!chosen) return;
    const field =
      chosen.origin === 'simulatedUser.model'
        ? 'simulatedUser.model'
        : `simulatedUser, no model: the ${chosen.origin === 'config judge' && config.judgeFromEnv ? 'EVALS_JUDGE_PROVIDER / EVALS_JUDGE_MODEL' : chosen.origin}`;
    const named = isJudgeName(chosen.ref) ? ` "${chosen.ref}"` : '';
    const user = `the user model in ${c.file} (${field}${named})`;
    const target = isJudgeName(chosen.ref) ? config.judges[chosen.ref] : chosen.ref;
    if (target !== undefined && isJudgeInstance(target)) return note(`${user}: a judge object: the model it calls is known only as it runs`);
    const model = judgeModelSpec(chosen.ref, config.judges);
    if (model) add(model.spec, user);
  }
  return { models: [...byKey.values()], notes };
}

/** Distinct models: the same `provider:model` at another endpoint or with other overrides is another check. */
function endpointKey(spec: ModelSpec): string {
  return JSON.stringify([spec.provider, spec.model, spec.baseURL ?? null, spec.apiKeyEnv ?? null, spec.capabilities ?? null, spec.reasoningEffort ?? null, spec.api ?? null, spec.proxy ?? null]);
}

function specOf(model: unknown, where: { file: string | undefined; field?: string }): ModelSpec {
  try {
    return parseModelSpec(model);
  } catch (err) {
    throw new UserError(errorMessage(err), where);
  }
}

function targetKind(target: unknown): string {
  const i = targetKindIndex(target);
  return i === undefined ? 'a target' : TARGET_KINDS[i]!.label;
}
