import type { MatrixColumn, MatrixRow, MatrixTable } from '../core/results-schema.js';
import { formatCost, formatDuration } from './format.js';
import { terminalSafe } from './sanitize.js';
import { alignedRows } from './aligned-rows.js';

/** The marker beside the best value of a column. */
export const BEST_MARK = '*';

const pct = (x: number) => `${Math.round(x * 100)}%`;

// `trials` is the N every column after it compares over (cases passed compares over cases): it marks no best.
const HEADERS = ['cases passed', 'trials', 'pass rate (95% CI)', 'score', 'target cost', 'judge cost', 'mean latency', 'p95 latency'] as const;
const ORDER: Array<MatrixColumn | undefined> = ['casesPassed', undefined, 'passRate', 'score', 'targetCost', 'judgeCost', 'latencyMean', 'latencyP95'];

/** A row's cells in column order, each with the best mark where it leads. */
function cells(r: MatrixRow): string[] {
  const rate = r.passRate.rate === null ? '–' : `${pct(r.passRate.rate)}${r.interval ? ` (${pct(r.interval.low)}–${pct(r.interval.high)})` : ''}`;
  const raw = [
    `${r.casesPassed}/${r.cases}`,
    String(r.passRate.trials),
    rate,
    r.score === null ? '–' : r.score.toFixed(2),
    formatCost(r.targetCostUsd),
    formatCost(r.judgeCostUsd),
    r.latencyMs ? formatDuration(r.latencyMs.mean) : '–',
    r.latencyMs ? formatDuration(r.latencyMs.p95) : '–',
  ];
  return raw.map((text, i) => {
    const column = ORDER[i];
    return column && r.best.includes(column) ? `${text} ${BEST_MARK}` : text;
  });
}

/** The mark's key only when a row carries a mark; then the notes (why columns mark none). */
const legend = (t: MatrixTable) => [...(t.rows.some((r) => r.best.length) ? [`${BEST_MARK} best in its column`] : []), ...t.notes].join(' · ');

/** The table as aligned plain text for the terminal (names made terminal-safe). */
export function matrixTableLines(t: MatrixTable): string[] {
  const rows = [[terminalSafe(t.dimension), ...HEADERS], ...t.rows.map((r) => [terminalSafe(r.value), ...cells(r)])];
  return [`Matrix ${terminalSafe(t.suite)}`, ...alignedRows(rows), ...(legend(t) ? [`  ${terminalSafe(legend(t))}`] : [])];
}

/** The table as Markdown for the GitHub step summary; `cell` escapes names. */
export function matrixMarkdown(t: MatrixTable, cell: (text: string) => string): string[] {
  return [
    '',
    `#### Matrix ${cell(t.suite)}`,
    '',
    `| ${cell(t.dimension)} | ${HEADERS.join(' | ')} |`,
    `|${' --- |'.repeat(HEADERS.length + 1)}`,
    ...t.rows.map((r) => `| ${[r.value, ...cells(r)].map(cell).join(' | ')} |`),
    ...(legend(t) ? ['', cell(legend(t))] : []),
  ];
}
