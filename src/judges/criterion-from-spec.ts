import type { Criterion } from './contract.js';
import { missingReferenceMessage, type JudgeAssertionSpec } from './spec.js';

/** A spec's missing piece (a reference, say) is a usage error in the eval file. */
export class CriterionError extends Error {}

/** The criterion an assertion asks for, with the case reference filled in where it is the default. */
export function criterionFromSpec(spec: JudgeAssertionSpec, caseReference: string | undefined): Criterion {
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
        ...(spec.type === 'judgeAgainst' ? { reference: needRef(spec.reference) } : {}),
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
      return { kind: 'pairwise', criteria: spec.criteria ?? 'Which response better answers the input, accurately and helpfully?', first: '', second: needRef(spec.comparedTo) };
  }
}

/** Threshold on 0..1: `threshold`, else `min` on the assertion's own scale, else 0.7 (pairwise: 1). */
export function thresholdOf(spec: JudgeAssertionSpec): number {
  if (spec.threshold !== undefined) return spec.threshold;
  if ('min' in spec && spec.min !== undefined) return spec.min / ('scale' in spec && spec.scale ? spec.scale : 1);
  return spec.type === 'pairwise' ? 1 : 0.7;
}
