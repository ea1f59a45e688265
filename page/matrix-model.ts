// The matrix grid's data, pure (no DOM): a matrix run's cases grouped per suite into rows (one per
// case id) and columns (one per matrix value), and which rows' variants differ, and why.
import type { CaseResult, MatrixTable, ResultsDoc } from './types';

/**
 * Pass rates this far apart mark a row as differing even when its verdicts agree: a quarter of the
 * trials, so 3/3 against 2/3 is marked but 20/20 against 18/20 is not (both are within what a few
 * more trials could move; the comparison table's intervals speak for the whole suite).
 */
export const NOTABLE_RATE_GAP = 0.25;

/** One variant of a case: its index in the results' cases, its passes and the trials that ran to a verdict. */
export interface GridCell {
  index: number;
  verdict: string;
  passed: number;
  ran: number;
}

/** One case across the variants: a cell per column (undefined where the variant did not run). */
export interface GridRow {
  id: string;
  cells: (GridCell | undefined)[];
  /** Why the variants differ (verdicts, or pass rates by NOTABLE_RATE_GAP or more); '' when they agree. */
  differs: string;
}

/** One matrixed suite: its columns, its rows and its comparison table when the results hold one. */
export interface Grid {
  suite: string;
  dimension: string;
  variants: string[];
  rows: GridRow[];
  table?: MatrixTable;
}

/** The trials of a case that ran to a verdict (interrupted ones are out), as the case list counts them. */
export function ranTrials(c: CaseResult): number {
  return c.passRate ? c.passRate.trials : c.trials.filter((t) => t.verdict !== 'interrupted').length;
}

/**
 * A case's matrix dimension(s) and value, e.g. `target` and `claude-support`, or a settings variant's
 * name (`agent[model=gpt-5.5,effort=low]`, as the comparison table's rows name it); null outside a matrix.
 */
function variantOf(c: CaseResult): { dimension: string; value: string } | null {
  const m = c.matrix;
  const dims = m ? Object.keys(m) : [];
  if (!m || !dims.length) return null;
  return { dimension: dims.join(' \u00d7 '), value: c.variant ? c.variant.name : dims.map((d) => m[d]).join(', ') };
}

/** Why a row's variants differ, or '' when they agree. */
export function rowDifference(cells: (GridCell | undefined)[], variants: string[]): string {
  const present: { cell: GridCell; variant: string }[] = [];
  cells.forEach((cell, i) => {
    if (cell) present.push({ cell, variant: variants[i] as string });
  });
  if (present.length < 2) return '';
  const first = present[0] as { cell: GridCell };
  if (present.some((p) => p.cell.verdict !== first.cell.verdict)) return 'verdicts differ: ' + present.map((p) => p.cell.verdict + ' on ' + p.variant).join(', ');
  const rates = present.filter((p) => p.cell.ran > 0).map((p) => p.cell.passed / p.cell.ran);
  if (rates.length < 2) return '';
  const gap = Math.max.apply(null, rates) - Math.min.apply(null, rates);
  return gap >= NOTABLE_RATE_GAP - 1e-9 ? 'pass rates differ by ' + Math.round(gap * 100) + ' points' : '';
}

/**
 * One grid per suite run over a matrix, in the order the suites first appear: the comparison
 * table's values first as columns (its order), then any other value its cases ran with; rows in
 * plan order, one per case id. A suite with a table but no case on the page still gets its table.
 */
export function matrixGrids(doc: ResultsDoc): Grid[] {
  const grids: Grid[] = [];
  // Maps, not objects: a suite or case id is the run's text ('__proto__' included).
  const bySuite = new Map<string, { grid: Grid; rows: Map<string, GridRow> }>();
  const gridOf = (suite: string, dimension: string): { grid: Grid; rows: Map<string, GridRow> } => {
    let g = bySuite.get(suite);
    if (!g) {
      const table = (doc.summary.matrix || []).filter((t) => t.suite === suite)[0];
      const grid: Grid = { suite, dimension: table ? table.dimension : dimension, variants: table ? table.rows.map((r) => r.value) : [], rows: [] };
      if (table) grid.table = table;
      g = { grid, rows: new Map() };
      bySuite.set(suite, g);
      grids.push(grid);
    }
    return g;
  };
  doc.cases.forEach((c, index) => {
    const v = variantOf(c);
    if (!v) return;
    const g = gridOf(c.suite, v.dimension);
    let col = g.grid.variants.indexOf(v.value);
    if (col === -1) col = g.grid.variants.push(v.value) - 1;
    let row = g.rows.get(c.id);
    if (!row) {
      row = { id: c.id, cells: [], differs: '' };
      g.rows.set(c.id, row);
      g.grid.rows.push(row);
    }
    row.cells[col] = { index, verdict: c.verdict, passed: c.passed, ran: ranTrials(c) };
  });
  (doc.summary.matrix || []).forEach((t) => gridOf(t.suite, t.dimension));
  grids.forEach((grid) =>
    grid.rows.forEach((row) => {
      // Every row as wide as the grid, so a variant that did not run is an empty cell, not a missing one.
      for (let i = 0; i < grid.variants.length; i++) if (!row.cells[i]) row.cells[i] = undefined;
      row.differs = rowDifference(row.cells, grid.variants);
    }),
  );
  return grids;
}
