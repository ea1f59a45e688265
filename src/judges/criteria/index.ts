import type { Criterion } from '../../core/judge-port.js';
import type { CriterionTemplate } from './template.js';
import { closedQa } from './closed-qa.js';
import { answerRelevance, contextRelevance, faithfulness } from './grounded.js';
import { factuality } from './factuality.js';
import { pairwise } from './pairwise.js';
import { rubric } from './rubric.js';
import { sql } from './sql.js';
import { summarizes } from './summarizes.js';

const TEMPLATES = { rubric, summarizes, factuality, closedQa, sql, pairwise, faithfulness, contextRelevance, answerRelevance } as const;

export function templateFor<C extends Criterion>(c: C): CriterionTemplate<C> {
  return TEMPLATES[c.kind] as unknown as CriterionTemplate<C>;
}
