import { pageHtml } from './page-shell.js';
import { pageCsp } from './html-page.js';
import { pageScript } from './page-scripts.js';
import type { ViewListData } from './view-data.js';
import { VIEW_STYLE } from './view-style.js';

/** The run list's Content-Security-Policy: only its script (by hash) runs, nothing loads. */
export function viewListCsp(): string {
  return pageCsp(pageScript('VIEW_SCRIPT'));
}

/** The run list page (`agent-evals view`): style, the runs as one JSON block (every `<` escaped), then its script. */
export function viewListHtml(data: ViewListData): string {
  return pageHtml({ csp: viewListCsp(), title: 'agent-evals runs', style: VIEW_STYLE, dataId: 'runs', script: pageScript('VIEW_SCRIPT') }, data);
}
