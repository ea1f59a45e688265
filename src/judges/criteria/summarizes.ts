import type { Criterion } from '../../core/judge-port.js';
import { scoredContract, type CriterionTemplate } from './template.js';

type Summarizes = Extract<Criterion, { kind: 'summarizes' }>;

export const summarizes: CriterionTemplate<Summarizes> = {
  kind: 'summarizes',
  task: (c) =>
    [
      'Decide how well the OUTPUT summarizes the SOURCE document.',
      'A good summary keeps the main points, adds nothing the source does not say, and contradicts nothing in it.',
      'Any claim not supported by the source is a serious fault.',
      c.scale === 10 ? 'Score from 1 (not a summary of this source) to 10 (faithful and complete).' : 'Score from 0 (not a summary of this source) to 1 (faithful and complete).',
      c.dimensions.length ? `Also score each dimension on the same scale: ${c.dimensions.join(', ')}.` : '',
    ]
      .filter(Boolean)
      .join('\n'),
  context: (c) => [['source', c.source]],
  graded: (_c, output) => ({ output }),
  contract: (c) => scoredContract('summary_judgment', c.scale, c.dimensions),
};
