import { scriptSafeJson } from './html-embed.js';
import { pageCsp } from './html-page.js';
import { VIEW_SCRIPT } from './page-script.generated.js';
import type { ViewListData } from './view-data.js';
import { VIEW_STYLE } from './view-style.js';

/** The run list's Content-Security-Policy: only its script (by hash) runs, nothing loads. */
export function viewListCsp(): string {
  return pageCsp(VIEW_SCRIPT);
}

/** The run list page (`agent-evals view`): style, the runs as one JSON block (every `<` escaped), then its script. */
export function viewListHtml(data: ViewListData): string {
  return (
    '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n' +
    `<meta http-equiv="Content-Security-Policy" content="${viewListCsp()}">\n` +
    '<meta name="viewport" content="width=device-width, initial-scale=1">\n<title>agent-evals runs</title>\n' +
    `<style>${VIEW_STYLE}</style>\n</head>\n<body>\n<main id="app"></main>\n` +
    `<script type="application/json" id="runs">${scriptSafeJson(JSON.stringify(data))}</script>\n` +
    `<script>${VIEW_SCRIPT}</script>\n</body>\n</html>\n`
  );
}
