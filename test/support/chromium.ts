/** Finds Debian's system Chromium for the browser tests (playwright-core downloads no browser). */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';
import { describe, it } from 'vitest';

/** The path of a `chromium` executable on PATH or at /usr/bin/chromium; undefined when none is installed. */
export function findChromium(): string | undefined {
  try {
    const found = execFileSync('which', ['chromium'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    if (found) return found;
  } catch {
    // `which` exits 1 when nothing is found.
  }
  return existsSync('/usr/bin/chromium') ? '/usr/bin/chromium' : undefined;
}

/** Launch flags: Chromium refuses its sandbox as root, which is how CI containers run. */
export function chromiumArgs(): string[] {
  return process.getuid?.() === 0 ? ['--no-sandbox'] : [];
}

let shared: Promise<Browser> | undefined;

/**
 * The test worker's one Chromium, launched by the first browser test file that asks for it: a launch
 * costs about 2 s of CPU, and the worker keeps this module between files (vitest.config.ts: isolate
 * false). A file opens its own pages (each `browser.newPage()` is a fresh context: no storage shared
 * between pages) and closes them with `closePages`, never the browser. A fresh context costs Chromium
 * several times a navigation, and a report page keeps nothing a later page could read: a file shows
 * its reports one after another in a page it navigates (`page.goto`), unless a test needs a fresh
 * context. Playwright ends the browser
 * when the worker exits. A browser that crashed or was closed is launched anew. Launched without
 * Playwright's signal handlers: its SIGINT handler ends the process (exit 130), and one put on while an
 * in-process CLI runs would be taken by `startCliInProcess` for the CLI's own, so a test's Ctrl-C
 * would end the test worker.
 */
export function sharedChromium(executablePath: string): Promise<Browser> {
  shared ??= chromium.launch({ executablePath, args: chromiumArgs(), handleSIGINT: false, handleSIGTERM: false, handleSIGHUP: false }).then((browser) => {
    browser.on('disconnected', () => (shared = undefined));
    return browser;
  });
  const launched = shared;
  // A failed launch is not kept: the next file tries again.
  launched.catch(() => {
    if (shared === launched) shared = undefined;
  });
  return launched;
}

/** Closes every page (and its context) a file opened in the shared browser: files run one at a time in a worker. */
export async function closePages(browser: Browser | undefined): Promise<void> {
  if (browser?.isConnected()) await Promise.all(browser.contexts().map((c) => c.close()));
}

/** True when the CI variable is set to anything but an empty string, "0" or "false". */
function inCi(): boolean {
  const ci = process.env.CI;
  return ci !== undefined && ci !== '' && ci !== '0' && ci.toLowerCase() !== 'false';
}

/**
 * `describe` for a browser suite: `body` gets Chromium's path. Without Chromium the suite is skipped
 * with a warning on a developer's machine, but under CI it is one failing test: a CI run must not pass
 * having silently left the browser tests out.
 */
export function describeInChromium(name: string, body: (executablePath: string) => void): void {
  const executablePath = findChromium();
  if (executablePath) {
    describe(name, () => body(executablePath));
    return;
  }
  if (inCi()) {
    describe(name, () => {
      it('finds Chromium (CI is set)', () => {
        throw new Error('CI is set and no Chromium was found on PATH or at /usr/bin/chromium: install it (apt-get install chromium; .ci/run does this as root)');
      });
    });
    return;
  }
  console.warn(`chromium not installed: apt-get install chromium to run "${name}"`);
  describe.skip(name, () => body(''));
}

/**
 * Records on a page what a report page must never do: every dialog (dismissed, as `type: message`) into
 * `dialogs`, and every uncaught page error and console error into `errors`.
 */
export function watchPage(page: import('playwright-core').Page, dialogs: string[], errors: string[]): void {
  page.on('dialog', (d) => {
    dialogs.push(`${d.type()}: ${d.message()}`);
    void d.dismiss();
  });
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(`console: ${m.text()}`);
  });
}
