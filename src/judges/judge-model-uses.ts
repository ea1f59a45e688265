import type { JudgeSubject } from '../core/judge-subject.js';
import { AGENT_MODEL_UNKNOWN } from './agent-judge.js';
import { judgeOriginLabel } from './judge-keys.js';
import { isJudgeName, judgeModelSpec } from './judge-ref-check.js';
import { resolveAssertionJudge } from './kept-judges.js';
import { memberLabel, singleRefs } from './panel-judgment.js';
import { isPanelRef } from './panel-spec.js';
import { PROMPT_JUDGE_PROVIDER } from './prompt-judge.js';
import { isJudgeInstance, type SingleJudgeRef } from './resolve.js';
import type { JudgeSettings } from './settings.js';
import type { ModelRef } from './spec.js';
import { staticJudgedSpecs } from './judged-specs.js';
import { formatModelSpec } from '../providers/model-spec.js';

/** A model a judge of the cases calls (`provider:model`), and which judge: the level that gave it, its name, its file. */
export interface JudgeModelUse {
  model: string;
  who: string;
}

/**
 * Each judge model the cases' judged assertions call, with who calls it (a judge named in an eval file
 * by that file): what the run warns about. `modelOf` is the `provider:model` one reference calls, or
 * undefined when it calls none known now (the fake judge, a factory agent judge, a prompt judge).
 */
export function judgeModelUsesOf(
  cases: readonly JudgeSubject<ModelRef>[],
  settings: Pick<JudgeSettings, 'judge' | 'judges' | 'override' | 'judgeFromEnv'>,
  modelOf: (ref: SingleJudgeRef) => string | undefined,
): JudgeModelUse[] {
  const uses: JudgeModelUse[] = [];
  for (const c of cases) {
    for (const spec of staticJudgedSpecs(c)) {
      const resolved = resolveAssertionJudge(
        { assertion: spec.judge, caseOrSuite: c.judge, config: settings.judge, ...(settings.override !== undefined ? { override: settings.override } : {}) },
        settings.judges,
      );
      if (!resolved) continue;
      const { ref, origin } = resolved;
      const label = judgeOriginLabel(origin, settings.judgeFromEnv) + (isJudgeName(ref) ? ` "${ref}"` : '') + (origin === 'config' || origin === 'override' ? '' : ` in ${c.file}`);
      for (const one of singleRefs(ref)) {
        const model = modelOf(one);
        if (model !== undefined) uses.push({ model, who: isPanelRef(ref) ? `${label} (panel member ${memberLabel(one)})` : label });
      }
    }
  }
  return uses;
}

/**
 * The model a reference calls, read without building its judge (no provider, no key needed): a
 * judge object's own report, else the model its spec names. For `run --estimate`, which calls nothing.
 */
export function staticJudgeModel(ref: SingleJudgeRef, judges: JudgeSettings['judges']): string | undefined {
  const target = isJudgeName(ref) ? judges[ref] : ref;
  if (target !== undefined && isJudgeInstance(target)) return calledModel(target);
  const spec = judgeModelSpec(ref, judges);
  return spec && formatModelSpec(spec.spec);
}

/** `provider:model` of a built judge, undefined when it calls no model known now. */
export function calledModel(judge: { provider: string; model: string }): string | undefined {
  return judge.provider === 'fake' || judge.provider === AGENT_MODEL_UNKNOWN || judge.provider === PROMPT_JUDGE_PROVIDER ? undefined : `${judge.provider}:${judge.model}`;
}
