/**
 * Watches a page in Chromium for network use: every request the page makes other than loading its
 * own document, and every load its Content-Security-Policy refused (a refused load is a request the
 * page tried to make: Chromium reports it on the console, not as a request). Anything not file: is
 * aborted as well, so a test never reaches out even if a page tried. Call before `page.goto`.
 *
 *   const net = await watchNetwork(page);
 *   await page.goto(pathToFileURL(path).href);
 *   ... use the page ...
 *   expect(net.attempts()).toEqual([]);
 */
import type { Page } from 'playwright-core';

export interface NetworkWatch {
  /** What the page asked for beyond its own document: `<method> <url>` or `csp-refused: <console text>`. */
  attempts(): string[];
}

export async function watchNetwork(page: Page): Promise<NetworkWatch> {
  const seen: string[] = [];
  // The top-level document of each navigation the test itself makes (page.goto) is the page, not a request of it.
  page.on('request', (r) => {
    if (r.isNavigationRequest() && r.frame() === page.mainFrame()) return;
    seen.push(`${r.method()} ${r.url()}`);
  });
  page.on('console', (m) => {
    if (/Content Security Policy/i.test(m.text())) seen.push(`csp-refused: ${m.text()}`);
  });
  await page.route(
    (url) => url.protocol !== 'file:',
    (route) => {
      const r = route.request();
      if (r.isNavigationRequest() && r.frame() === page.mainFrame()) return route.continue();
      return route.abort('blockedbyclient');
    },
  );
  return { attempts: () => [...seen] };
}
