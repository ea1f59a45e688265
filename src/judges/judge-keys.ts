import type { JudgeSubject } from '../core/judge-subject.js';
import { missingApiKey } from '../providers/model-spec.js';
import { staticJudgedSpecs } from './judged-specs.js';
import { judgeModelSpec } from './judge-ref-check.js';
import { resolveAssertionJudge } from './kept-judges.js';
import type { JudgeOrigin } from './resolve.js';
import type { JudgeSettings } from './settings.js';
import type { ModelRef } from './spec.js';

/** An API key a judge needs and the environment lacks: the variable, and the judge as an error names it (which level gave it). */
export interface MissingJudgeKey {
  variable: string;
  judge: string;
}

/**
 * The judges' half of the key check before a run: the API keys the judges of a case's judged
 * assertions (known before the run) need and `env` lacks. The run's check (runner/api-keys.ts)
 * puts them beside its targets' in one error per variable.
 */
export function missingJudgeKeys(
  judging: Pick<JudgeSettings, 'judge' | 'judges' | 'override' | 'judgeFromEnv'>,
  env: NodeJS.ProcessEnv,
  subject: JudgeSubject<ModelRef>,
  specOf: JudgeSpecMemo = judgeSpecMemo(),
): MissingJudgeKey[] {
  const { judge, judges, override } = judging;
  const missing: MissingJudgeKey[] = [];
  for (const assertion of staticJudgedSpecs(subject)) {
    const resolved = resolveAssertionJudge({ ...(override !== undefined ? { override } : {}), assertion: assertion.judge, caseOrSuite: subject.judge, config: judge }, judges);
    const model = resolved && specOf(resolved.ref, judges);
    if (!resolved || !model) continue;
    const variable = missingApiKey(model.spec, env);
    if (variable) missing.push({ variable, judge: judgeOriginLabel(resolved.origin, judging.judgeFromEnv) + (model.name !== undefined ? ` "${model.name}"` : '') });
  }
  return missing;
}

/** judgeModelSpec, remembered per reference (a string by value, an object by identity) for one check over many cases. */
export type JudgeSpecMemo = (ref: unknown, judges: Record<string, unknown>) => ReturnType<typeof judgeModelSpec>;

export function judgeSpecMemo(): JudgeSpecMemo {
  const specs = new Map<unknown, ReturnType<typeof judgeModelSpec>>();
  return (ref, judges) => {
    if (specs.has(ref)) return specs.get(ref);
    const spec = judgeModelSpec(ref, judges);
    specs.set(ref, spec);
    return spec;
  };
}

/** Which level gave an assertion its judge, as errors and warnings name it. */
export function judgeOriginLabel(origin: JudgeOrigin, judgeFromEnv: boolean): string {
  switch (origin) {
    case 'override':
      return '--judge';
    case 'assertion':
      return 'assertion judge';
    case 'checkApi':
      return 't.useJudge';
    case 'caseOrSuite':
      return 'case or suite judge';
    case 'config':
      return judgeFromEnv ? 'EVALS_JUDGE_PROVIDER / EVALS_JUDGE_MODEL' : 'config judge';
  }
}
