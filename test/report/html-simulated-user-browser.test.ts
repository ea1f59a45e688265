/**
 * The simulated user's usage in the HTML report, in headless Chromium: the run summary lists it
 * apart from target and judge and splits the cost three ways; a trial lists its user usage and how
 * the conversation ended (skipped where no Chromium is installed).
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, expect, it } from 'vitest';
import { htmlReporter } from '../../src/report/html.js';
import { removeTempDirs } from '../support/cli.js';
import { describeInChromium, sharedChromium, closePages } from '../support/chromium.js';
import type { FakeProvider } from '../support/fake-server.js';
import { simulatedUserRun } from '../support/simulated-user-run.js';

describeInChromium('simulated-user usage in the HTML report', (executablePath) => {
  let browser: Browser | undefined;
  const fakes: FakeProvider[] = [];
  afterAll(async () => {
    await closePages(browser);
    await Promise.all(fakes.map((f) => f.close()));
    removeTempDirs();
  });

  it('the summary and the trial show the user model tokens and cost apart from target and judge', async () => {
    let path = '';
    await simulatedUserRun((dir) => [htmlReporter({ path: (path = join(dir, 'report.html')), outputDir: join(dir, '.agent-evals'), version: 'test' })], fakes);
    browser = await sharedChromium(executablePath);
    const page = await browser.newPage();
    await page.goto(pathToFileURL(path).href, { waitUntil: 'load' });
    const fact = (scope: ReturnType<typeof page.locator>, label: string) => scope.locator(`dt:text-is("${label}") + dd`).first().textContent();

    const summary = page.locator('section.summary');
    await expect(fact(summary, 'Simulated user usage')).resolves.toBe('3 calls, 3000 in / 300 out tokens, $0.0017');
    await expect(fact(summary, 'Target usage')).resolves.toBe('2 calls, 200 in / 20 out tokens, $0.0001');
    await expect(summary.locator('.cost .legend').textContent()).resolves.toBe('target $0.0001 / judge $0.0000 / simulated user $0.0017');
    await expect(summary.locator('.cost .split > span').evaluateAll((spans) => spans.map((s) => s.className))).resolves.toEqual(['target', 'judge', 'user']);

    await page.locator('details.case > summary').first().click();
    const trial = page.locator('details.trial').first();
    if (!(await trial.evaluate((d: { open?: boolean }) => d.open === true))) await trial.locator('> summary').click();
    await expect(fact(trial, 'Simulated user usage')).resolves.toBe('3 calls, 3000 in / 300 out tokens, $0.0017');
    await expect(fact(trial, 'Simulated user')).resolves.toBe('stopped: goal-met');
  }, 60_000);
});
