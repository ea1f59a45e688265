// The history's cases: the table of those that changed most, and every case with its sparkline,
// filtered by key and listed a page at a time. Text goes in by textContent only (dom.ts).
import { add, el } from './dom';
import { sparkline } from './history-chart';
import { pagedList } from './paged-list';
import type { HistoryCase, HistoryData } from '../src/report/history-data';

/** Cases added to the list at a time. */
const PAGE = 200;

const percent = (v: number) => Math.round(v * 100) + '%';

/** The value a sparkline draws per run: the pass rate, or the mean score where no trial ran to a verdict. */
function values(c: HistoryCase): (number | null)[] {
  return c.points.map((p) => (p ? (p[1] !== null ? p[1] : p[2]) : null));
}

/** The case's last verdict, from the last run that held it. */
function lastVerdict(c: HistoryCase): string {
  for (let i = c.points.length - 1; i >= 0; i--) {
    const p = c.points[i];
    if (p) return p[0];
  }
  return '';
}

function caseSpark(c: HistoryCase): SVGSVGElement {
  const held = c.points.filter((p) => p !== null).length;
  return sparkline(
    values(c),
    c.points.map((p) => (p ? p[0] : null)),
    `${c.key}: in ${held} of ${c.points.length} runs, ${c.flips} verdict flips, pass-rate range ${percent(c.range)}`,
  );
}

function verdictBadge(v: string): HTMLSpanElement {
  return el('span', 'verdict ' + v, v);
}

/** The cases that changed most: most verdict flips, then widest pass-rate range. */
export function renderChanged(app: HTMLElement, data: HistoryData): void {
  add(app, el('h2', null, 'Changed most'));
  if (!data.changed) {
    add(app, el('p', 'muted', 'No case changed its verdict or pass rate across these runs.'));
    return;
  }
  const table = add(app, el('table', 'changed'));
  const head = add(add(table, el('thead')), el('tr'));
  for (const h of ['Case', 'Verdict flips', 'Pass-rate range', 'Over the runs', 'Last verdict']) add(head, el('th', null, h));
  const body = add(table, el('tbody'));
  for (const c of data.cases.slice(0, data.changed)) {
    const row = add(body, el('tr'));
    add(add(row, el('td')), el('span', 'key', c.key));
    add(row, el('td', null, String(c.flips)));
    add(row, el('td', null, percent(c.range)));
    add(add(row, el('td')), caseSpark(c));
    add(add(row, el('td')), verdictBadge(lastVerdict(c)));
  }
}

/** Every case with its sparkline, most changed first; a filter on the key, a page at a time. */
export function renderCases(app: HTMLElement, data: HistoryData): void {
  add(app, el('h2', null, 'Cases'));
  const tools = add(app, el('div', 'tools'));
  const filter = add(tools, el('input'));
  filter.type = 'search';
  filter.placeholder = 'Filter cases by key';
  const count = add(tools, el('span', 'count'));
  const list = add(app, el('div', 'cases'));
  const more = add(app, el('button', 'more', 'Show more'));
  const caseRow = (c: HistoryCase): HTMLElement => {
    const row = el('div', 'case-row');
    add(row, el('span', 'key', c.key));
    add(row, caseSpark(c));
    add(row, el('span', 'muted', `${c.flips} flips`));
    add(row, verdictBadge(lastVerdict(c)));
    return row;
  };
  const show = pagedList(list, more, PAGE, caseRow, (shown, total) => {
    count.textContent = `${shown} of ${total} cases`;
  });
  const apply = () => {
    const q = filter.value.trim().toLowerCase();
    show(q ? data.cases.filter((c) => c.key.toLowerCase().includes(q)) : data.cases);
  };
  filter.addEventListener('input', apply);
  apply();
}
