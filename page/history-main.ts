/**
 * The history page's script (`agent-evals report --history`), entry point: bundled by
 * scripts/page-bundle.mjs as HISTORY_SCRIPT, inlined by src/report/history-page.ts, whose CSP lets
 * only it run. It reads the history from the JSON block (#history): runs oldest first, cases most
 * changed first (src/report/history-data.ts), and draws the runs' pass rate, score and cost as SVG
 * line charts (a circle.point per run), the cases that changed most, and every case's sparkline.
 * Every node is built with textContent, so run ids, file names and case keys stay text.
 */
import { add, el } from './dom';
import { renderCases, renderChanged } from './history-cases';
import { lineChart } from './history-chart';
import type { HistoryData } from '../src/report/history-data';

const data = JSON.parse((document.getElementById('history') as HTMLElement).textContent || '{}') as HistoryData;
const app = document.getElementById('app') as HTMLElement;
const runs = data.runs;

const percent = (v: number) => Math.round(v * 100) + '%';
const dollars = (v: number) => '$' + (v >= 1 ? v.toFixed(2) : v.toFixed(4));

add(app, el('h1', null, 'agent-evals history'));
const facts = add(app, el('dl', 'facts'));
const fact = (name: string, value: string) => {
  add(facts, el('dt', null, name));
  add(facts, el('dd', null, value));
};
const first = runs[0];
const last = runs[runs.length - 1];
fact('Runs', `${runs.length}` + (first && last ? `, ${first.label} to ${last.label}` : ''));
if (last) {
  fact('Latest run', `${last.id} (${last.file})` + (last.gitSha ? `, commit ${last.gitSha.slice(0, 12)}` : ''));
  fact('Latest pass rate', last.passRate === null ? 'no trial ran' : `${percent(last.passRate)} (${last.passed} of ${last.trials} trials)`);
}
fact('Cases', String(data.cases.length));
if (data.skipped.length) {
  fact('Files skipped', `${data.skipped.length} (not results files)`);
  const list = add(app, el('ul', 'skipped'));
  for (const s of data.skipped) add(list, el('li', null, s));
}

add(app, el('h2', null, 'Over the runs'));
const charts = add(app, el('div', 'charts'));
// Each point's tooltip and the axis' two ends: date, time and commit, so runs of one day tell apart.
const labels = runs.map((r) => `${r.label}${r.kind ? ` (${r.kind})` : ''} · ${r.id}`);
// A scored batch graded recorded traces, not the agent run over the suite: a gap in the trend, listed below.
const trend = (value: number | null, r: (typeof runs)[number]) => (r.scored ? null : value);
const ends: [string, string] = [first?.label ?? '', last?.label ?? ''];
const chart = (title: string, svg: SVGSVGElement) => {
  const figure = add(charts, el('figure', 'chart'));
  add(figure, el('figcaption', null, title));
  add(figure, svg);
};
chart(
  'Pass rate',
  lineChart(
    runs.map((r) => trend(r.passRate, r)),
    { cls: 'pass-rate', label: 'Pass rate per run', max: 1, format: percent, labels, ends },
  ),
);
chart(
  'Score',
  lineChart(
    runs.map((r) => trend(r.score, r)),
    { cls: 'score', label: 'Mean score per run', max: 1, format: (v) => v.toFixed(2), labels, ends },
  ),
);
chart(
  'Cost',
  lineChart(
    runs.map((r) => trend(r.costUsd, r)),
    { cls: 'cost', label: 'Cost per run', format: dollars, labels, ends },
  ),
);

renderChanged(app, data);
renderCases(app, data);

// The runs, as a table under a fold: what each point of the charts is.
const fold = add(app, el('details', 'runs'));
add(fold, el('summary', null, `All ${runs.length} runs`));
const table = add(fold, el('table', 'changed'));
const head = add(add(table, el('thead')), el('tr'));
for (const h of ['Started', 'Run', 'Kind', 'File', 'Pass rate', 'Score', 'Cost', 'Cases passed']) add(head, el('th', null, h));
const body = add(table, el('tbody'));
for (const r of runs) {
  const row = add(body, el('tr'));
  for (const v of [
    r.label,
    r.id,
    r.kind ?? '',
    r.file,
    r.passRate === null ? '—' : percent(r.passRate),
    r.score.toFixed(2),
    r.costUsd === null ? 'unknown' : dollars(r.costUsd),
    `${r.cases.passed} of ${r.cases.total}`,
  ])
    add(row, el('td', null, v));
}
if (typeof performance !== 'undefined' && performance.mark) performance.mark('agent-evals:history-drawn');
