// The matrix section: for a run over a matrix (`matrix:` in an eval file, `--matrix`), one grid per
// matrixed suite (a row per case id, a column per matrix value, each cell the variant's verdict, its
// passes of N trials and, on open, its first trial's reply), rows whose variants differ marked, and the
// suite's comparison table. Replies are built only when their cell is opened and rows are added a
// page at a time, so a large matrix opens as quickly as a small one. A cell's verdict is a button that
// opens that variant's case in the case list, named (aria-label) by its case and matrix value. A run without a matrix gets nothing.
import { add, el } from './dom';
import type { Fields } from './fields';
import { pct } from './format';
import { comparisonTable } from './matrix-table';
import { matrixGrids, type Grid, type GridCell, type GridRow } from './matrix-model';
import { pagedList } from './paged-list';
import type { CaseResult, ResultsDoc } from './types';

/** Grid rows added per page (and per "Show more rows"). */
const PAGE_ROWS = 100;

/** Opens the case at this index of the results in the case list (case-list.ts). */
export type OpenCase = (index: number) => void;

export function renderMatrixGrid(app: HTMLElement, doc: ResultsDoc, fields: Fields, openCase: OpenCase): void {
  const grids = matrixGrids(doc);
  if (!grids.length) return;
  const section = add(app, el('section', 'matrix'));
  add(section, el('h2', null, 'Matrix'));
  grids.forEach((g) => suiteGrid(section, g, doc.cases, fields, openCase));
}

function suiteGrid(parent: HTMLElement, g: Grid, cases: CaseResult[], fields: Fields, openCase: OpenCase): void {
  const box = add(parent, el('div', 'mx-suite'));
  add(box, el('h3', null, 'Suite ' + g.suite + ': ' + g.rows.length + ' case' + (g.rows.length === 1 ? '' : 's') + ' \u00d7 ' + g.variants.length + ' ' + g.dimension + ' values'));
  if (g.table) comparisonTable(box, g.table);
  if (!g.rows.length) return;

  const differing = g.rows.filter((r) => r.differs);
  const tools = add(box, el('div', 'mx-tools'));
  const label = add(tools, el('label'));
  const only = add(label, el('input'));
  only.type = 'checkbox';
  add(label, document.createTextNode(' Only rows whose variants differ (' + differing.length + ')'));
  const count = add(tools, el('span', 'mx-count'));

  const table = add(add(box, el('div', 'mx-scroll')), el('table', 'mx-grid'));
  const head = add(add(table, el('thead')), el('tr'));
  add(head, el('th', null, 'case'));
  g.variants.forEach((v) => add(head, el('th', 'mx-variant', v)));
  const body = add(table, el('tbody'));
  const more = add(box, el('button', 'mx-more', 'Show more rows'));
  more.type = 'button';

  const show = pagedList(
    body,
    more,
    PAGE_ROWS,
    (row: GridRow) => gridRow(row, g, cases, fields, openCase),
    (shown, total) => {
      count.textContent = shown + ' of ' + total + ' rows shown';
    },
  );
  const refresh = (): void => show(only.checked ? differing : g.rows);
  only.addEventListener('change', refresh);
  refresh();
}

function gridRow(row: GridRow, g: Grid, cases: CaseResult[], fields: Fields, openCase: OpenCase): HTMLTableRowElement {
  const tr = el('tr', row.differs ? 'mx-row mx-differs' : 'mx-row');
  const th = add(tr, el('th', 'mx-case'));
  th.setAttribute('scope', 'row');
  add(th, el('span', 'key', row.id));
  if (row.differs) add(th, el('span', 'mx-why', row.differs));
  row.cells.forEach((cell, i) =>
    add(tr, cell ? gridCell(cell, cases[cell.index] as CaseResult, fields, openCase, 'case ' + row.id + ', ' + g.dimension + ' ' + g.variants[i]) : el('td', 'mx-cell mx-none', 'not run')),
  );
  return tr;
}

/** `where` names the cell (`case x, target y`): its button's accessible name, since the verdict alone says not which cell it is. */
function gridCell(cell: GridCell, c: CaseResult, fields: Fields, openCase: OpenCase, where: string): HTMLTableCellElement {
  const td = el('td', 'mx-cell ' + cell.verdict);
  const go = add(td, el('button', 'mx-open'));
  go.type = 'button';
  go.title = 'Open this case in the case list';
  add(go, el('span', 'verdict ' + cell.verdict, cell.verdict));
  const n = cell.passed + '/' + cell.ran + ' passed';
  add(go, el('span', 'mx-n', n + (cell.ran ? ' (' + pct(cell.passed / cell.ran) + ')' : '')));
  // An attribute, so the ids and target names in it stay text.
  go.setAttribute('aria-label', where + ': ' + cell.verdict + ', ' + n);
  go.addEventListener('click', () => openCase(cell.index));
  const first = c.trials[0];
  if (!first) return td;
  const reply = add(td, el('details', 'mx-reply'));
  add(reply, el('summary', null, 'Reply'));
  // Built on first open: thousands of cells cost a summary each until a reader opens one.
  let built = false;
  reply.addEventListener('toggle', () => {
    if (!reply.open || built) return;
    built = true;
    const of = c.trials.length > 1 ? ' (trial 1 of ' + c.trials.length + ')' : '';
    if (first.error) fields.block(reply, 'Error' + of, first.error, 'error');
    if (first.turns && first.turns.length) first.turns.forEach((t, n) => fields.block(reply, 'Agent (turn ' + (n + 1) + ')' + of, t.reply, 'agent'));
    else if (first.reply === '' || first.reply === undefined) add(reply, el('p', 'cut-note', 'Empty reply' + of));
    else fields.block(reply, 'Reply' + of, first.reply, 'agent');
  });
  return td;
}
