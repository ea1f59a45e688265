import type { Criterion } from '../../core/judge-port.js';
import { choiceContract, type CriterionTemplate } from './template.js';

type ClosedQa = Extract<Criterion, { kind: 'closedQa' }>;

/** A yes/no question about the output: yes → 1, no → 0. */
export const closedQa: CriterionTemplate<ClosedQa> = {
  kind: 'closedQa',
  task: () => 'Answer the QUESTION about the OUTPUT with "yes" or "no". Answer "yes" only when the output clearly satisfies it.',
  context: (c) => [['question', c.question]],
  graded: (_c, output) => ({ output }),
  contract: () => choiceContract('closed_qa_judgment', 'answer', { yes: 1, no: 0 }),
};
