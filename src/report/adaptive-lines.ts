import type { CaseResult } from '../core/results-schema.js';

type Adaptive = NonNullable<CaseResult['adaptive']>;

const WHY: Record<Adaptive['stoppedBy'], string> = {
  decided: 'decided',
  max: 'undecided at max',
  budget: 'stopped by the budget',
  bail: 'stopped by bail',
  interrupted: 'interrupted',
};

/** `adaptive 7 of 3..30 trials, decided`: how many trials an adaptive case used and why it stopped. */
export function adaptiveNote(a: Adaptive): string {
  return `adaptive ${a.used} of ${a.min}..${a.max} trials, ${WHY[a.stoppedBy]}`;
}

/** The N a case's passes are out of: the trials an adaptive case used, else the planned count. */
export const trialsOutOf = (r: Pick<CaseResult, 'planned' | 'adaptive'>): number => r.adaptive?.used ?? r.planned;
