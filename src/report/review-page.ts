import { createHash } from 'node:crypto';
import { scriptSafeJson } from './html-embed.js';
import { REVIEW_SCRIPT } from './page-script.generated.js';
import { REVIEW_STYLE } from './review-style.js';
import type { ReviewPageData } from './review-items.js';

/**
 * The review page's Content-Security-Policy: only its own script (by hash) runs, nothing loads, and
 * the one connection it may make is to where it came from (`connect-src 'self'`), to save labels.
 * The server sends it as a header too, with `frame-ancestors 'none'`, which a meta tag cannot carry.
 */
export function reviewCsp(): string {
  const hash = createHash('sha256').update(REVIEW_SCRIPT, 'utf8').digest('base64');
  return `default-src 'none'; script-src 'sha256-${hash}'; style-src 'unsafe-inline'; connect-src 'self'; base-uri 'none'; form-action 'none'`;
}

/** The review page: style, the data as one JSON block (every `<` escaped), then the review script. */
export function reviewPageHtml(data: ReviewPageData): string {
  return (
    '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n' +
    `<meta http-equiv="Content-Security-Policy" content="${reviewCsp()}">\n` +
    '<meta name="viewport" content="width=device-width, initial-scale=1">\n<title>agent-evals review</title>\n' +
    `<style>${REVIEW_STYLE}</style>\n</head>\n<body>\n<main id="app"></main>\n` +
    `<script type="application/json" id="review">${scriptSafeJson(JSON.stringify(data))}</script>\n` +
    `<script>${REVIEW_SCRIPT}</script>\n</body>\n</html>\n`
  );
}
