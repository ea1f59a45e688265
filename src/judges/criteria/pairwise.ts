import type { Criterion } from '../../core/judge-port.js';
import { choiceContract, type CriterionTemplate } from './template.js';

type Pairwise = Extract<Criterion, { kind: 'pairwise' }>;

/** Which of two responses better meets the criteria; the caller maps positions back to sides. */
export const pairwise: CriterionTemplate<Pairwise> = {
  kind: 'pairwise',
  task: () =>
    [
      'Two responses to the same INPUT are shown as RESPONSE_A and RESPONSE_B. Decide which better meets the CRITERIA.',
      'Judge substance, not length or position. Answer "tie" only when neither is better.',
    ].join('\n'),
  context: (c) => [['criteria', c.criteria]],
  graded: (c) => ({ response_a: c.first, response_b: c.second }),
  contract: () => choiceContract('pairwise_judgment', 'winner', { A: 1, B: 0, tie: 0.5 }),
};
