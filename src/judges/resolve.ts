import type { ModelRef } from './spec.js';
import type { Judge } from './contract.js';

/** A judge reference as config and files give it; `fake` needs no model. */
export type JudgeRef = ModelRef | 'fake' | { provider: 'fake'; fixtures?: string } | Judge;

/**
 * The judge for one assertion: `--judge` for the whole run, else assertion > `t.useJudge` > case >
 * suite > config > environment (config already folds the environment in).
 */
export function resolveJudgeRef(levels: { override?: JudgeRef; assertion?: JudgeRef; checkApi?: JudgeRef; caseOrSuite?: ModelRef; config?: JudgeRef }): JudgeRef | undefined {
  return levels.override ?? levels.assertion ?? levels.checkApi ?? levels.caseOrSuite ?? levels.config;
}

export function isFakeRef(ref: JudgeRef): boolean {
  if (typeof ref === 'string') return ref === 'fake' || ref.startsWith('fake:');
  return ref.provider === 'fake' && typeof (ref as Judge).judge !== 'function';
}

export function refKey(ref: JudgeRef): string {
  return typeof ref === 'string' ? ref : JSON.stringify(ref);
}
