/**
 * The HTML report's page script: the browser code of report.html, entry point.
 *
 * Where it lives: page/ holds the browser sources, one concern a file (dom.ts: building
 * nodes, textContent only, never innerHTML; fields.ts: data values and cut fields; summary.ts: the
 * header; case-list.ts: filter and the page-at-a-time list; trial.ts: one trial; assertions.ts).
 * They type-check against the DOM alone (page/tsconfig.json, part of `npm run typecheck`
 * and `npm test`) and import nothing of ours outside this folder (.dependency-cruiser.cjs, rule
 * `page-alone`); the data they read is typed in types.ts.
 *
 * How it is built: scripts/page-bundle.mjs (run first by `npm run build`) bundles this file with
 * rolldown into one ES2019 IIFE and writes it, as `PAGE_SCRIPT`, into dist/report/page-scripts.json
 * (never committed; src/report/page-scripts.ts reads it, from src/ in the tests as from dist/).
 * html-page.ts inlines it and puts its sha256 into the page's Content-Security-Policy.
 * test/build/page-script.test.ts fails when the built file is stale: after editing here, run
 * `npm run build` (or `node scripts/page-bundle.mjs`).
 *
 * How to test it: write a page with writeHtmlReport (src/report/html-page.ts) and open it in headless
 * Chromium through test/support/chromium.ts, as test/report/html-browser.test.ts does (CSP holds,
 * no script runs from a payload, 'agent-evals:first-cases' is marked).
 *
 * What it does: reads the results from the JSON block (#results) and builds every node with
 * textContent, so agent, tool and judge text stays text. Trials are built only when their case is
 * opened and the case list grows a page at a time, so a run of 10,000 trials opens as fast as a
 * small one. Once the first cases are on the page it marks 'agent-evals:first-cases' in
 * `performance`, so a test or a bench can read when that happened from the page itself.
 */
import { renderBeforeAfter } from './before-after';
import { renderCaseList } from './case-list';
import { Fields } from './fields';
import { renderMatrixGrid, type OpenCase } from './matrix-grid';
import { renderRedteam } from './redteam';
import { renderSummary } from './summary';
import type { PageData } from './types';

const data = JSON.parse((document.getElementById('results') as HTMLElement).textContent) as PageData;
const app = document.getElementById('app') as HTMLElement;
const fields = new Fields(data.cut, data.files);
const changes = renderSummary(app, data.results, fields);
renderBeforeAfter(app, data, fields);
renderRedteam(app, data.results, data.keys, fields);
// The grid comes before the list on the page; its cells open cases through the list, once it is built.
let openCase: OpenCase = () => undefined;
renderMatrixGrid(app, data.results, fields, (index) => openCase(index));
openCase = renderCaseList(app, data.results, data.keys, changes, fields);
if (typeof performance !== 'undefined' && performance.mark) performance.mark('agent-evals:first-cases');
