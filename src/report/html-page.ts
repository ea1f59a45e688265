import { createHash } from 'node:crypto';
import { writeAtomic } from './atomic-write.js';
import { scriptSafeJson } from './html-embed.js';
import { FieldCutter, FIELD_LIMIT } from './html-cut.js';
import { pageScript } from './page-scripts.js';
import { MATRIX_STYLE } from './matrix-style.js';
import { REDTEAM_STYLE } from './redteam-style.js';
import { RUN_REPORT_STYLE } from './run-report-style.js';
import type { BaselineView } from './baseline-view.js';
import { BEFORE_AFTER_STYLE } from './before-after-style.js';
import { navHtml, NAV_STYLE, type NavLink } from './page-nav.js';

const STYLE = `
body { font: 14px/1.45 system-ui, sans-serif; margin: 0 auto; max-width: 1200px; padding: 1rem 1.5rem; color: #1d2430; background: #fff; }
h1 { font-size: 1.4rem; margin: 0 0 .5rem; } h3 { font-size: 1rem; margin: 1rem 0 .4rem; }
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: .15rem 1rem; margin: .4rem 0; }
dt { color: #5a6474; } dd { margin: 0; overflow-wrap: anywhere; }
.cost { display: flex; align-items: center; gap: .6rem; margin: .5rem 0; }
.split { display: flex; width: 240px; height: 12px; background: #e6e9ef; border-radius: 3px; overflow: hidden; }
.split .target { background: #3b6fd8; } .split .judge { background: #b061c9; } .split .user { background: #2f9e4f; }
.run-failure { color: #b3261e; font-weight: 600; }
.tools { position: sticky; top: 0; background: #fff; padding: .6rem 0; display: flex; gap: 1rem; align-items: center; border-bottom: 1px solid #e6e9ef; }
.tools input { flex: 1; padding: .35rem .5rem; font: inherit; }
details { border-bottom: 1px solid #eef0f4; }
summary { cursor: pointer; padding: .3rem 0; display: flex; gap: .6rem; align-items: center; flex-wrap: wrap; }
.key { font-family: ui-monospace, monospace; overflow-wrap: anywhere; }
.verdict { font-size: .75rem; font-weight: 600; text-transform: uppercase; padding: 0 .35rem; border-radius: 3px; background: #e6e9ef; }
.verdict.passed { background: #d7f0dc; color: #17622b; } .verdict.failed, .verdict.error { background: #fbdcd9; color: #8c1d15; }
.verdict.scored { background: #fdf0c8; color: #7a5a00; } .verdict.skipped, .verdict.interrupted { background: #eceff3; color: #5a6474; }
.change { font-size: .75rem; padding: 0 .35rem; border: 1px solid #8c1d15; border-radius: 3px; }
.bar { display: inline-block; width: 120px; height: 8px; background: #fbdcd9; border-radius: 3px; overflow: hidden; }
.bar .fill { display: block; height: 100%; background: #2f9e4f; }
.rate, .score { color: #5a6474; font-size: .85rem; }
.case-body, .trial-body { padding: .2rem 0 .6rem 1.2rem; }
.block, .tool, .assertion { margin: .4rem 0; padding: .4rem .6rem; border-left: 3px solid #d5dae3; background: #f8f9fb; }
.block.user { border-color: #3b6fd8; } .block.agent { border-color: #2f9e4f; } .block.history { border-color: #9aa5b8; } .block.reference { border-color: #b061c9; } .block.error, .tool.error, .assertion.failed, .assertion.error { border-color: #b3261e; }
.label { font-weight: 600; font-size: .85rem; }
.cut-note { color: #5a6474; font-size: .85rem; }
a.full { display: inline-block; margin-top: .2rem; font-size: .85rem; }
pre { white-space: pre-wrap; overflow-wrap: anywhere; margin: .2rem 0 0; font: 12.5px/1.4 ui-monospace, monospace; }
.more { margin: 1rem 0; }
${RUN_REPORT_STYLE}
${MATRIX_STYLE}
${REDTEAM_STYLE}
${BEFORE_AFTER_STYLE}
${NAV_STYLE}`;

/** The page's Content-Security-Policy: nothing loads, only the page script (by hash) runs. */
export function pageCsp(script: string = pageScript('PAGE_SCRIPT')): string {
  const hash = createHash('sha256').update(script, 'utf8').digest('base64');
  return `default-src 'none'; script-src 'sha256-${hash}'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'`;
}

/** The results document's top (all but its cases), as the JSON reporter writes it. */
export type ResultsHead = Record<string, unknown>;

/** One case for the page: its JSON text and its key (`suite/id [target=…]`), which the comparison names. */
export interface PageCase {
  json: string;
  key: string;
}

/** What a page write left beside the page: the folder of cut fields, when any field was cut. */
export interface HtmlReportWritten {
  /** The folder of cut fields (`report-files` beside `report.html`), or undefined when no field was cut. */
  filesDir: string | undefined;
  /** How many fields were cut (files in the folder). */
  cutFields: number;
}

/** What a page may hold beside the results, in its data block. */
export interface PageExtras {
  /** A compared run's moved cases as the baseline ran them (the Before and after section; baseline-view.ts). */
  baseline?: BaselineView | undefined;
  /** Links above the report (`agent-evals view`: back to its run list). */
  nav?: readonly NavLink[] | undefined;
}

/**
 * Writes the report atomically: inline style, the results as one JSON data block
 * (`{ "results": …, "keys": […], "files": …, "cut": … }`, every `<` escaped), then the page script.
 * Cases are written as they come, so a large run is never held whole as one string. A text field
 * over `fieldLimit` characters is cut (see FieldCutter): its whole text goes to `<page>-files/<n>.txt`
 * beside the page, which links to it; every shorter field is in the page itself.
 */
export async function writeHtmlReport(
  path: string,
  head: ResultsHead,
  cases: AsyncIterable<PageCase> | Iterable<PageCase>,
  fieldLimit = FIELD_LIMIT,
  extras: PageExtras = {},
): Promise<HtmlReportWritten> {
  const cutter = new FieldCutter(path, fieldLimit);
  await cutter.clear();
  await writeAtomic(path, (write) => renderHtmlReport(write, head, cases, cutter, extras));
  return { filesDir: cutter.files ? cutter.dir : undefined, cutFields: cutter.files };
}

/**
 * The report page, piece by piece to `write`. Without a cutter every field stays whole in the page
 * (`agent-evals view`, which serves the page from memory and has no folder beside it).
 */
export async function renderHtmlReport(
  write: (chunk: string) => void,
  head: ResultsHead,
  cases: AsyncIterable<PageCase> | Iterable<PageCase>,
  cutter: FieldCutter | undefined,
  extras: PageExtras = {},
): Promise<void> {
  const cut = async (json: string) => (cutter ? cutter.cut(json) : json);
  write(
    '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n' +
      `<meta http-equiv="Content-Security-Policy" content="${pageCsp()}">\n` +
      '<meta name="viewport" content="width=device-width, initial-scale=1">\n<title>agent-evals report</title>\n' +
      `<style>${STYLE}</style>\n</head>\n<body>\n${navHtml(extras.nav)}<main id="app"></main>\n<script type="application/json" id="results">`,
  );
  write(scriptSafeJson(`{"results":${JSON.stringify(head).replace(/}$/, '')}${Object.keys(head).length ? ',' : ''}"cases":[`));
  const keys: string[] = [];
  for await (const c of cases) {
    write((keys.length ? ',' : '') + scriptSafeJson(await cut(c.json)));
    keys.push(c.key);
  }
  write(scriptSafeJson(`]},"keys":${JSON.stringify(keys)},"files":${JSON.stringify(cutter?.dirName ?? '')},"cut":${JSON.stringify(cutter?.key ?? '')}`));
  if (extras.baseline) write(`,"baseline":${scriptSafeJson(await cut(JSON.stringify(extras.baseline)))}`);
  write('}');
  write(`</script>\n<script>${pageScript('PAGE_SCRIPT')}</script>\n</body>\n</html>\n`);
}
