import type { Criterion } from '../core/judge-port.js';
import type { Severity } from '../core/results-schema.js';
import type { JudgedDefaults } from '../core/judge-subject.js';
import { CriterionError } from '../core/errors.js';
import { missingReferenceMessage, type JudgeAssertionSpec } from './spec.js';
import type { AgentRun } from '../core/agent-run.js';
import { groundingPassages } from './grounding-context.js';

/** What a pairwise assertion asks when it names no criteria of its own. */
export const PAIRWISE_DEFAULT_CRITERIA = 'Which response better answers the input, accurately and helpfully?';

/** The criterion an assertion asks for, with the case reference filled in where it is the default. */
export function criterionFromSpec(spec: JudgeAssertionSpec, caseReference: string | undefined, run?: AgentRun): Criterion {
  const needRef = (given: string | undefined): string => {
    const ref = given ?? caseReference;
    if (ref === undefined) throw new CriterionError(missingReferenceMessage(spec.type));
    return ref;
  };
  switch (spec.type) {
    case 'judge':
    case 'judgeAgainst':
      return {
        kind: 'rubric',
        criteria: spec.criteria,
        // A plain rubric sees the case's reference as context; judgeAgainst grades against it.
        ...(spec.type === 'judgeAgainst' ? { reference: needRef(spec.reference) } : caseReference !== undefined ? { caseReference } : {}),
        scale: spec.scale ?? 1,
        dimensions: Object.keys(spec.dimensions ?? {}),
        ...(spec.choices ? { choices: spec.choices } : {}),
      };
    case 'summarizes':
      return { kind: 'summarizes', source: spec.source, scale: spec.scale ?? 1, dimensions: Object.keys(spec.dimensions ?? {}) };
    case 'factuality':
      return { kind: 'factuality', reference: needRef(spec.reference) };
    case 'closedQa':
      return { kind: 'closedQa', question: spec.question };
    case 'sql':
      return { kind: 'sql', reference: needRef(spec.reference) };
    case 'pairwise':
      // first/second are placed per order by the caller.
      return { kind: 'pairwise', criteria: spec.criteria ?? PAIRWISE_DEFAULT_CRITERIA, first: '', second: needRef(spec.comparedTo) };
    case 'faithfulness':
    case 'contextRelevance':
      // A tool's results are the trial's: read from its run (none without one).
      return { kind: spec.type, context: groundingPassages(spec.context, run ?? { reply: '' }) };
    case 'answerRelevance':
      return { kind: 'answerRelevance' };
  }
}

/** Dimension minimums on 0..1: written on the assertion's own scale, like `min`. */
export function dimensionMinimums(spec: JudgeAssertionSpec): Record<string, number> {
  if (!('dimensions' in spec) || !spec.dimensions) return {};
  const scale = spec.scale ?? 1;
  return Object.fromEntries(Object.entries(spec.dimensions).map(([d, min]) => [d, min / scale]));
}

/** `.gate()` / `.soft()` on the assertion, else the config's `judgeSeverity`. */
export function severityOf(spec: JudgeAssertionSpec, defaults: JudgedDefaults): Severity {
  return spec.severity ?? defaults.severity;
}

/**
 * Threshold on 0..1: `threshold`, else `min` on the assertion's own scale, else the config's
 * `judgeThreshold`. Pairwise keeps 1 (only an outright win passes): its scores are win 1, tie 0.5,
 * loss 0, so a rubric-style default would let a tie pass.
 */
export function thresholdOf(spec: JudgeAssertionSpec, defaults: JudgedDefaults): number {
  if (spec.threshold !== undefined) return spec.threshold;
  if ('min' in spec && spec.min !== undefined) return spec.min / ('scale' in spec && spec.scale ? spec.scale : 1);
  return spec.type === 'pairwise' ? 1 : defaults.threshold;
}
