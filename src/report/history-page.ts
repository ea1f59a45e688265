import { writeAtomic } from './atomic-write.js';
import type { HistoryData } from './history-data.js';
import { HISTORY_STYLE } from './history-style.js';
import { scriptSafeJson } from './html-embed.js';
import { pageCsp } from './html-page.js';
import { HISTORY_SCRIPT } from './page-script.generated.js';
import { navHtml, NAV_STYLE, type NavLink } from './page-nav.js';

/** The history page's Content-Security-Policy: only its script runs, nothing loads. */
export function historyCsp(): string {
  return pageCsp(HISTORY_SCRIPT);
}

/**
 * The history page (`agent-evals report --history`, `agent-evals view`): inline style, the history as
 * one JSON data block (`#history`, every `<` escaped), then the history page script, whose sha256 is
 * the only script the page's Content-Security-Policy lets run. Nothing loads from anywhere.
 */
export function historyPageHtml(data: HistoryData, nav?: readonly NavLink[]): string {
  return (
    '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n' +
    `<meta http-equiv="Content-Security-Policy" content="${historyCsp()}">\n` +
    '<meta name="viewport" content="width=device-width, initial-scale=1">\n<title>agent-evals history</title>\n' +
    `<style>${HISTORY_STYLE}\n${NAV_STYLE}</style>\n</head>\n<body>\n${navHtml(nav)}<main id="app"></main>\n<script type="application/json" id="history">` +
    scriptSafeJson(JSON.stringify(data)) +
    `</script>\n<script>${HISTORY_SCRIPT}</script>\n</body>\n</html>\n`
  );
}

/** Writes the history page atomically. */
export async function writeHistoryPage(path: string, data: HistoryData): Promise<void> {
  await writeAtomic(path, (write) => write(historyPageHtml(data)));
}
