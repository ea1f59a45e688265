import { createHash } from 'node:crypto';
import { pageHtml } from './page-shell.js';
import { pageScript } from './page-scripts.js';
import { DRAFTS_STYLE } from './drafts-style.js';
import type { DraftPageData } from '../core/draft-review.js';

/**
 * The drafts page's Content-Security-Policy, as the labels review's: only its own script (by hash)
 * runs, nothing loads, and its one connection is back to the server it came from, to post actions.
 */
export function draftsCsp(): string {
  const hash = createHash('sha256').update(pageScript('DRAFTS_SCRIPT'), 'utf8').digest('base64');
  return `default-src 'none'; script-src 'sha256-${hash}'; style-src 'unsafe-inline'; connect-src 'self'; base-uri 'none'; form-action 'none'`;
}

/** The drafts page: style, the data as one JSON block (every `<` escaped), then its script. */
export function draftsPageHtml(data: DraftPageData): string {
  return pageHtml({ csp: draftsCsp(), title: 'agent-evals review: drafts', style: DRAFTS_STYLE, dataId: 'drafts', script: pageScript('DRAFTS_SCRIPT') }, data);
}
