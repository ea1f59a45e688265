/**
 * The run list's script (`agent-evals view`), entry point: bundled by scripts/page-bundle.mjs as
 * VIEW_SCRIPT, inlined by src/report/view-page.ts, whose CSP lets only it run. It reads the runs from
 * the JSON block (#runs, newest first; src/report/view-data.ts) and builds a table with a link to
 * each run's report, to its comparison with the run before it, and a form that compares any two.
 * Every node is built with textContent, and every address from encodeURIComponent, so run ids,
 * commits and command-line flags stay text.
 */
import { add, el } from './dom';
import { pct, usd } from './format';
import type { ViewListData, ViewRun } from '../src/report/view-data';

const data = JSON.parse((document.getElementById('runs') as HTMLElement).textContent || '{}') as ViewListData;
const app = document.getElementById('app') as HTMLElement;
const runs = data.runs;

/** Addresses relative to the list (`/<token>/`), so the token is never written by this script. */
const reportHref = (r: ViewRun) => 'run/' + encodeURIComponent(r.id);
const compareHref = (before: string, after: string) => 'compare/' + encodeURIComponent(before) + '/' + encodeURIComponent(after);
const EXIT_MEANING: Record<number, string> = { 0: 'passed', 1: 'failed', 2: 'bad input', 130: 'interrupted' };

const link = (href: string, text: string) => {
  const a = el('a', null, text);
  a.setAttribute('href', href);
  return a;
};

add(app, el('h1', null, 'agent-evals runs'));
const facts = add(app, el('dl', 'facts'));
const fact = (name: string, value: string | Node) => {
  add(facts, el('dt', null, name));
  const dd = add(facts, el('dd'));
  if (typeof value === 'string') dd.textContent = value;
  else add(dd, value);
};
fact('Folder', data.dir);
fact('Runs', String(runs.length));
if (runs.length) fact('History', link('history', `pass rate, score and cost over the ${runs.length} runs`));
if (data.skipped.length) {
  fact('Skipped', `${data.skipped.length} run folder${data.skipped.length === 1 ? '' : 's'}`);
  const list = add(app, el('ul', 'skipped'));
  for (const s of data.skipped) add(list, el('li', null, s));
}

if (runs.length > 1) {
  // Any two runs side by side: the later one's report with its before/after against the earlier.
  const form = add(app, el('div', 'compare'));
  const pick = (label: string, chosen: number) => {
    add(form, el('label', null, label));
    const select = add(form, el('select'));
    select.setAttribute('aria-label', label);
    runs.forEach((r, i) => {
      const option = add(select, el('option', null, `${r.started} ${r.id}`));
      option.value = r.id;
      if (i === chosen) option.selected = true;
    });
    return select;
  };
  const before = pick('Before', 1);
  const after = pick('After', 0);
  const go = add(form, el('button', null, 'Compare'));
  go.type = 'button';
  go.addEventListener('click', () => {
    window.location.href = compareHref(before.value, after.value);
  });
}

const table = add(app, el('table', 'runs'));
const head = add(add(table, el('thead')), el('tr'));
for (const h of ['Started', 'Commit', 'Pass rate', 'Cases', 'Cost', 'Exit', 'Selection', 'Trace', 'Compare']) add(head, el('th', null, h));
const body = add(table, el('tbody'));
runs.forEach((r, i) => {
  const row = add(body, el('tr', 'run'));
  row.dataset.id = r.id;
  add(add(row, el('td', 'started')), link(reportHref(r), r.started)).title = r.id;
  add(row, el('td', 'commit key', r.gitSha ? r.gitSha.slice(0, 12) : '—'));
  add(row, el('td', 'pass-rate', r.passRate === null ? '—' : `${pct(r.passRate)} (${r.passed}/${r.trials})`));
  add(row, el('td', 'cases', `${r.cases.passed} of ${r.cases.total} passed` + (r.cases.failed ? `, ${r.cases.failed} failed` : '')));
  add(row, el('td', 'cost', r.costUsd === null ? 'unknown' : usd(r.costUsd)));
  add(row, el('td', 'exit ' + (r.exitCode === 0 ? 'ok' : 'bad'), `${r.exitCode} ${EXIT_MEANING[r.exitCode] ?? ''}`.trim()));
  add(row, el('td', 'selection key', [r.kind, r.selection].filter(Boolean).join('; ') || 'all'));
  add(row, el('td', 'trace', r.trace ?? '—'));
  const older = runs[i + 1];
  const cell = add(row, el('td', 'vs'));
  if (older) add(cell, link(compareHref(older.id, r.id), 'vs previous'));
});
if (!runs.length) add(app, el('p', 'muted', 'No run folder with a results document yet: `agent-evals run` writes one per run.'));
