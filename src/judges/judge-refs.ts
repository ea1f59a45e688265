import { UserError, UserErrors } from '../core/errors.js';
import { isJudgeName, judgeRefProblem } from './judge-ref-check.js';
import { refKey } from './resolve.js';
import { staticJudgedSpecs } from './judged-specs.js';
import type { JudgeSubject } from '../core/judge-subject.js';
import type { JudgeSettings } from './settings.js';
import { checkEmbeddingModels } from './embedding-check.js';
import { pushAll } from '../core/push-all.js';

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

function dedupe(errors: UserError[]): UserError[] {
  const seen = new Set<string>();
  return errors.filter((e) => !seen.has(e.message) && seen.add(e.message));
}
