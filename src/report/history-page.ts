import { writeAtomic } from './atomic-write.js';
import type { HistoryData } from './history-data.js';
import { HISTORY_STYLE } from './history-style.js';
import { pageCsp } from './html-page.js';
import { pageScript } from './page-scripts.js';
import type { NavLink } from './page-nav.js';
import { pageHtml } from './page-shell.js';

/** The history page's Content-Security-Policy: only its script runs, nothing loads. */
export function historyCsp(): string {
  return pageCsp(pageScript('HISTORY_SCRIPT'));
}

/**
 * The history page (`agent-evals report --history`, `agent-evals view`): inline style, the history as
 * one JSON data block (`#history`, every `<` escaped), then the history page script, whose sha256 is
 * the only script the page's Content-Security-Policy lets run. Nothing loads from anywhere.
 */
export function historyPageHtml(data: HistoryData, nav?: readonly NavLink[]): string {
  return pageHtml({ csp: historyCsp(), title: 'agent-evals history', style: HISTORY_STYLE, dataId: 'history', script: pageScript('HISTORY_SCRIPT'), nav }, data);
}

/** Writes the history page atomically. */
export async function writeHistoryPage(path: string, data: HistoryData): Promise<void> {
  await writeAtomic(path, (write) => write(historyPageHtml(data)));
}
