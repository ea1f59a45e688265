import { UserError, UserErrors } from '../core/errors.js';
import { isJudgeName, judgeRefProblem } from './judge-ref-check.js';
import { refKey } from './resolve.js';
import { staticJudgedSpecs } from './judged-specs.js';
import type { JudgeSubject } from '../core/judge-subject.js';
import type { JudgeSettings } from './settings.js';
import { checkEmbeddingModels } from './embedding-check.js';
import { pushAll } from '../core/push-all.js';
import { assertionName } from '../assertions/assertion-name.js';

/**
 * `--judge` and every `judge:` the selected cases' eval files give must name a judge that exists,
 * checked before the run so each error blames who wrote it: the flag, or the file and line (the
 * config's own judges were checked when it loaded).
 */
export function checkRunJudgeRefs(judging: Pick<JudgeSettings, 'judges' | 'override' | 'embeddingModel'>, cases: readonly JudgeSubject[]): void {
  const { judges, override } = judging;
  if (override !== undefined) {
    const problem = judgeRefProblem(override, judges);
    if (problem) {
      const known = Object.keys(judges);
      throw new UserError(
        `--judge ${refKey(override)}: ${
          isJudgeName(override)
            ? `expected "provider:model" (e.g. "openai:gpt-4.1-mini") or the name of a judge in the config's \`judges\` (${known.length ? `configured: ${known.join(', ')}` : 'none configured'})`
            : problem
        }`,
      );
    }
  }
  const errors: UserError[] = [];
  for (const c of cases) {
    const refs = [c.judge, ...staticJudgedSpecs(c).map((s) => s.judge)];
    for (const ref of refs) {
      const problem = ref === undefined ? undefined : judgeRefProblem(ref, judges);
      if (problem) errors.push(new UserError(problem, { file: c.file, line: c.line ?? undefined, field: 'judge' }));
    }
  }
  pushAll(errors, checkEmbeddingModels(judging, cases));
  if (errors.length > 0) throw errors.length === 1 ? errors[0]! : new UserErrors(dedupe(errors));
}

/**
 * A judged assertion the eval files declare, with no judge anywhere to grade it (no `--judge`, no
 * `judge:` on it or its case or suite, none in the config or the environment), is bad input before any
 * target runs. A TS check's assertions are made at run time: one with no judge fails there, as a gate.
 */
export function checkJudgesExist(judging: Pick<JudgeSettings, 'judge' | 'override' | 'dryRun'>, cases: readonly JudgeSubject[]): void {
  if (judging.dryRun || judging.override !== undefined || judging.judge !== undefined) return;
  const errors: UserError[] = [];
  for (const c of cases) {
    if (c.judge !== undefined) continue;
    const unjudged = staticJudgedSpecs(c).find((s) => s.judge === undefined);
    if (!unjudged) continue;
    errors.push(
      new UserError(
        `${assertionName(unjudged)}: a judged assertion and no judge to grade it: set \`judge: 'provider:model'\` in the config, give --judge provider:model (in a test, evaluate(...).useJudge('provider:model')), or set EVALS_JUDGE_PROVIDER and EVALS_JUDGE_MODEL (--dry-run grades with the fake judge)`,
        { file: c.file, line: c.line ?? undefined, field: 'assert' },
      ),
    );
  }
  if (errors.length > 0) throw errors.length === 1 ? errors[0]! : new UserErrors(errors);
}

function dedupe(errors: UserError[]): UserError[] {
  const seen = new Set<string>();
  return errors.filter((e) => !seen.has(e.message) && seen.add(e.message));
}
