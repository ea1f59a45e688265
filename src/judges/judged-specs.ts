import type { JudgeSubject } from '../core/judge-subject.js';
import { isJudgeType, type JudgeAssertionSpec } from './spec.js';

/** A case's judged assertions known before the run: its own and its turns' (a TS `check()` adds more at run time). */
export function staticJudgedSpecs(c: Pick<JudgeSubject, 'assertions' | 'turns'>): JudgeAssertionSpec[] {
  return [...c.assertions, ...(c.turns ?? []).flatMap((t) => t.assert ?? [])].filter((s): s is JudgeAssertionSpec => isJudgeType(s.type));
}
