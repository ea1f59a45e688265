import { scriptSafeJson } from './html-embed.js';
import { navHtml, NAV_STYLE, type NavLink } from './page-nav.js';

/** What a served or written page is made of, beside its data. */
export interface PageShell {
  /** The page's Content-Security-Policy (also sent as a header by a server). */
  csp: string;
  title: string;
  style: string;
  /** The id of its JSON data block, which its script reads. */
  dataId: string;
  /** Its one script, inlined; the CSP names its hash. */
  script: string;
  /** Links above the page (`agent-evals view`). */
  nav?: readonly NavLink[] | undefined;
}

/**
 * A page built whole (the review, history and run list pages): inline style, the data as one JSON block
 * (every `<` escaped, see scriptSafeJson), then the page's script. The run report streams its own.
 */
export function pageHtml(shell: PageShell, data: unknown): string {
  return (
    '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n' +
    `<meta http-equiv="Content-Security-Policy" content="${shell.csp}">\n` +
    `<meta name="viewport" content="width=device-width, initial-scale=1">\n<title>${shell.title}</title>\n` +
    `<style>${shell.style}${shell.nav?.length ? `\n${NAV_STYLE}` : ''}</style>\n</head>\n<body>\n${navHtml(shell.nav)}<main id="app"></main>\n` +
    `<script type="application/json" id="${shell.dataId}">${scriptSafeJson(JSON.stringify(data))}</script>\n` +
    `<script>${shell.script}</script>\n</body>\n</html>\n`
  );
}
