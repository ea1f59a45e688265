/** One link of a page's nav bar: our own address and words, never text from a run. */
export interface NavLink {
  href: string;
  text: string;
}

/** What may not stand as itself inside an attribute or element text. */
const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const escape = (text: string) => text.replace(/[&<>"']/g, (ch) => ESCAPES[ch]!);

/**
 * The links above a page that `agent-evals view` serves (its run list, history): plain anchors,
 * escaped all the same; nothing when there are none (a written report or history page).
 */
export function navHtml(links: readonly NavLink[] | undefined): string {
  if (!links?.length) return '';
  return `<nav class="view-nav">${links.map((l) => `<a href="${escape(l.href)}">${escape(l.text)}</a>`).join(' · ')}</nav>\n`;
}

/** The nav bar's look, in every page that may carry one. */
export const NAV_STYLE = `nav.view-nav { font-size: .9rem; padding: .3rem 0 .6rem; color: #5a6474; }`;
