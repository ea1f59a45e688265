import type { Criterion } from '../../core/judge-port.js';
import { choiceContract, type CriterionTemplate } from './template.js';

type Sql = Extract<Criterion, { kind: 'sql' }>;

/** Semantic equivalence of two SQL queries: equivalent → 1, not → 0. */
export const sql: CriterionTemplate<Sql> = {
  kind: 'sql',
  task: () =>
    [
      'Decide whether the SQL query in the OUTPUT is semantically equivalent to the REFERENCE query for the request in the INPUT:',
      'equivalent means it returns the same rows (order only matters if the request asks for an order) on any database state.',
      'Formatting, aliases and join syntax do not matter.',
    ].join('\n'),
  context: (c) => [['reference', c.reference]],
  graded: (_c, output) => ({ output }),
  contract: () => choiceContract('sql_judgment', 'verdict', { equivalent: 1, different: 0 }),
};
