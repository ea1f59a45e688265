import type { Criterion } from '../../core/judge-port.js';
import { choiceContract, scoredContract, type CriterionTemplate } from './template.js';

type Rubric = Extract<Criterion, { kind: 'rubric' }>;

/** `judge` (free rubric) and `judgeAgainst` (rubric with a reference answer). */
export const rubric: CriterionTemplate<Rubric> = {
  kind: 'rubric',
  task: (c) =>
    [
      'Grade the OUTPUT against the CRITERIA below, and nothing else.',
      c.reference !== undefined ? 'Use the REFERENCE as the expected answer: the output need not match its wording, only its substance.' : '',
      c.caseReference !== undefined ? "The REFERENCE is the case's reference answer, given as context: the CRITERIA decide, use the reference only where they call for it." : '',
      c.choices
        ? `Answer with the one CHOICE that best describes how the output meets the criteria: ${Object.keys(c.choices)
            .map((k) => JSON.stringify(k))
            .join(', ')}.`
        : c.scale === 10
          ? 'Score from 1 (fails the criteria) to 10 (fully meets them).'
          : 'Score from 0 (fails the criteria) to 1 (fully meets them), partial credit in between.',
      c.dimensions.length ? `Also score each dimension on the same scale: ${c.dimensions.join(', ')}.` : '',
    ]
      .filter(Boolean)
      .join('\n'),
  context: (c) => {
    const reference = c.reference ?? c.caseReference;
    return [['criteria', c.criteria], ...(reference !== undefined ? [['reference', reference] as [string, string]] : [])];
  },
  graded: (_c, output) => ({ output }),
  contract: (c) => (c.choices ? choiceContract('rubric_choice_judgment', 'choice', c.choices) : scoredContract('rubric_judgment', c.scale, c.dimensions)),
};
