import type { IncomingMessage, ServerResponse } from 'node:http';
import type { BaselineView } from './baseline-view.js';
import type { HistoryData } from './history-data.js';
import { historyCsp, historyPageHtml } from './history-page.js';
import { pageCsp, renderHtmlReport, type PageCase, type ResultsHead } from './html-page.js';
import { Refusal, sendHtml, startLocalServer, type LocalServer } from './local-server.js';
import type { NavLink } from './page-nav.js';
import type { ViewListData } from './view-data.js';
import { viewListCsp, viewListHtml } from './view-page.js';

/** One report as the viewer shows it: the results' top, its cases (trials in full), and for a comparison the baseline's side. */
export interface ViewReport {
  head: ResultsHead;
  cases: Iterable<PageCase> | AsyncIterable<PageCase>;
  baseline?: BaselineView | undefined;
}

/** What the viewer serves, read anew for each page (a run that ends meanwhile shows up on the next load). */
export interface ViewSource {
  runs(): Promise<ViewListData>;
  /** A run's report; undefined when no run folder of that id holds results. */
  report(id: string): Promise<ViewReport | undefined>;
  /** `after`'s report compared with `before` (the Before and after); undefined when either is unknown. */
  compare(before: string, after: string): Promise<ViewReport | undefined>;
  history(): Promise<HistoryData>;
}

/**
 * `agent-evals view`: serves the run list (`/<token>/`), a run's report (`run/<id>`), two runs
 * compared (`compare/<before>/<after>`) and the history (`history`) on 127.0.0.1 under a random token;
 * see local-server.ts for what is refused. Pages are the report, history and list pages the
 * static writers make, each with its own CSP; nothing is written to disk.
 */
export function startViewServer(source: ViewSource, port: number): Promise<LocalServer> {
  return startLocalServer(
    port,
    (path, req, res) => servePage(source, path, req, res),
    (err) => `could not build the page: ${err.message}`,
  );
}

async function servePage(source: ViewSource, path: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
  if (req.method !== 'GET' && req.method !== 'HEAD') throw new Refusal(405, 'GET a page');
  const parts = path
    .replace(/[?#].*$/, '')
    .split('/')
    .slice(1)
    .map(decodePart);
  // Links back are relative to the page's depth, so no page holds the token in its markup.
  const root = parts.length > 1 ? '../'.repeat(parts.length - 1) : './';
  const nav: NavLink[] = [
    { href: root, text: 'All runs' },
    { href: `${root}history`, text: 'History' },
  ];
  const [kind, a, b] = parts;
  if (parts.length === 1 && kind === '') return sendHtml(req, res, viewListHtml(await source.runs()), viewListCsp());
  if (parts.length === 1 && kind === 'history') return sendHtml(req, res, historyPageHtml(await source.history(), nav), historyCsp());
  const report = kind === 'run' && parts.length === 2 ? await source.report(a!) : kind === 'compare' && parts.length === 3 ? await source.compare(a!, b!) : undefined;
  if (!report) throw new Refusal(404, 'no such page or run');
  const chunks: string[] = [];
  await renderHtmlReport((chunk) => chunks.push(chunk), report.head, report.cases, undefined, { baseline: report.baseline, nav });
  sendHtml(req, res, chunks.join(''), pageCsp());
}

function decodePart(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    throw new Refusal(400, 'a bad address');
  }
}
