import type { ModelRef } from './spec.js';
import type { Judge } from '../core/judge-port.js';
import { isPanelRef, type PanelRef } from './panel-spec.js';

/** One judge as config and files give it; `fake` (a ModelRef string) needs no model. */
export type SingleJudgeRef = ModelRef | { provider: 'fake'; fixtures?: string } | Judge;

/** A judge reference: one judge, or a panel of them (panel-spec.ts). */
export type JudgeRef = SingleJudgeRef | PanelRef<SingleJudgeRef>;

export interface JudgeLevels {
  override?: JudgeRef;
  assertion?: JudgeRef;
  checkApi?: JudgeRef;
  caseOrSuite?: ModelRef;
  config?: JudgeRef;
}

/** Which level gave an assertion its judge: errors about that judge point there. */
export type JudgeOrigin = keyof JudgeLevels;

/**
 * The judge for one assertion and the level it came from: `--judge` for the whole run, else
 * assertion > `t.useJudge` > case > suite > config > environment (config already folds the environment in).
 */
export function resolveJudge(levels: JudgeLevels): { ref: JudgeRef; origin: JudgeOrigin } | undefined {
  for (const origin of ['override', 'assertion', 'checkApi', 'caseOrSuite', 'config'] as const) {
    const ref = levels[origin];
    if (ref !== undefined) return { ref, origin };
  }
  return undefined;
}

export function isJudgeInstance(ref: unknown): ref is Judge {
  return typeof ref === 'object' && ref !== null && typeof (ref as Judge).judge === 'function';
}

export function isFakeRef(ref: JudgeRef): boolean {
  if (isPanelRef(ref)) return false;
  if (typeof ref === 'string') return ref === 'fake' || ref.startsWith('fake:');
  return ref.provider === 'fake' && typeof (ref as Judge).judge !== 'function';
}

export function refKey(ref: JudgeRef): string {
  return typeof ref === 'string' ? ref : JSON.stringify(ref);
}
