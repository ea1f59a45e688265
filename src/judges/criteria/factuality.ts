import type { Criterion } from '../../core/judge-port.js';
import { choiceContract, type CriterionTemplate } from './template.js';

type Factuality = Extract<Criterion, { kind: 'factuality' }>;

/**
 * Choice → score. A consistent answer that leaves facts out scores lower than one that adds
 * consistent detail; a conflict is 0; immaterial differences (style, wording) count as the same.
 */
export const FACTUALITY_SCORES = {
  subset: 0.5,
  superset: 0.75,
  same: 1,
  immaterial: 1,
  conflict: 0,
} as const;

export const factuality: CriterionTemplate<Factuality> = {
  kind: 'factuality',
  task: () =>
    [
      'Compare the factual content of the OUTPUT with the REFERENCE answer to the INPUT. Ignore style, grammar and wording.',
      'Choose exactly one:',
      '- "subset": the output is consistent with the reference but leaves some of its facts out;',
      '- "superset": the output contains every fact of the reference, consistently, and adds more;',
      '- "same": the output states the same facts as the reference;',
      '- "immaterial": the two differ, but not in a way that matters for factual correctness;',
      '- "conflict": the output contradicts the reference.',
    ].join('\n'),
  context: (c) => [['reference', c.reference]],
  graded: (_c, output) => ({ output }),
  contract: () => choiceContract('factuality_judgment', 'choice', FACTUALITY_SCORES),
};
