import { createHash } from 'node:crypto';
import { pageHtml } from './page-shell.js';
import { pageScript } from './page-scripts.js';
import { REVIEW_STYLE } from './review-style.js';
import type { ReviewPageData } from './review-items.js';

/**
 * The review page's Content-Security-Policy: only its own script (by hash) runs, nothing loads, and
 * the one connection it may make is to where it came from (`connect-src 'self'`), to save labels.
 * The server sends it as a header too, with `frame-ancestors 'none'`, which a meta tag cannot carry.
 */
export function reviewCsp(): string {
  const hash = createHash('sha256').update(pageScript('REVIEW_SCRIPT'), 'utf8').digest('base64');
  return `default-src 'none'; script-src 'sha256-${hash}'; style-src 'unsafe-inline'; connect-src 'self'; base-uri 'none'; form-action 'none'`;
}

/** The review page: style, the data as one JSON block (every `<` escaped), then the review script. */
export function reviewPageHtml(data: ReviewPageData): string {
  return pageHtml({ csp: reviewCsp(), title: 'agent-evals review', style: REVIEW_STYLE, dataId: 'review', script: pageScript('REVIEW_SCRIPT') }, data);
}
