// A matrix suite's comparison table (summary.matrix): one row per matrix value, the columns the
// terminal prints (src/report/matrix-lines.ts), the best of a column marked, then the notes on why a
// column marks none.
import { add, el } from './dom';
import { dur, pct, usd } from './format';
import type { MatrixRow, MatrixTable } from './types';

/** The headers after the value's, each with the `best` column it shows (trials marks none: it is the N). */
const COLUMNS: { head: string; best?: MatrixRow['best'][number]; text: (r: MatrixRow) => string }[] = [
  { head: 'cases passed', best: 'casesPassed', text: (r) => r.casesPassed + '/' + r.cases },
  { head: 'trials', text: (r) => String(r.passRate.trials) },
  {
    head: 'pass rate (95% interval)',
    best: 'passRate',
    text: (r) =>
      r.passRate.rate === null
        ? '\u2013'
        : pct(r.passRate.rate) + ' (' + r.passRate.passed + '/' + r.passRate.trials + (r.interval ? ', ' + pct(r.interval.low) + ' to ' + pct(r.interval.high) : '') + ')',
  },
  { head: 'score', best: 'score', text: (r) => (r.score === null ? '\u2013' : r.score.toFixed(3)) },
  { head: 'target cost', best: 'targetCost', text: (r) => usd(r.targetCostUsd) },
  { head: 'judge cost', best: 'judgeCost', text: (r) => usd(r.judgeCostUsd) },
  { head: 'mean latency', best: 'latencyMean', text: (r) => (r.latencyMs ? dur(r.latencyMs.mean) : '\u2013') },
  { head: 'p95 latency', best: 'latencyP95', text: (r) => (r.latencyMs ? dur(r.latencyMs.p95) : '\u2013') },
];

export function comparisonTable(parent: Node, t: MatrixTable): HTMLTableElement {
  const wrap = add(parent, el('div', 'mx-scroll'));
  const table = add(wrap, el('table', 'mx-table'));
  const head = add(add(table, el('thead')), el('tr'));
  add(head, el('th', null, t.dimension));
  COLUMNS.forEach((c) => add(head, el('th', null, c.head)));
  const body = add(table, el('tbody'));
  t.rows.forEach((r) => {
    const tr = add(body, el('tr'));
    add(tr, el('th', 'mx-value', r.value)).setAttribute('scope', 'row');
    COLUMNS.forEach((c) => {
      const best = c.best !== undefined && r.best.indexOf(c.best) !== -1;
      const td = add(tr, el('td', best ? 'best' : null, c.text(r)));
      if (best) add(td, el('span', 'mx-best', ' \u2605')).title = 'best in its column';
    });
  });
  const legend = (t.rows.some((r) => r.best.length > 0) ? ['\u2605 best in its column'] : []).concat(t.notes);
  if (legend.length) add(parent, el('p', 'mx-notes', legend.join(' \u00b7 ')));
  return table;
}
