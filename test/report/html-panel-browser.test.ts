/**
 * A judge panel's members in the HTML report, in headless Chromium: the trial's judged assertion
 * lists each member with its score, own verdict and reason (skipped where no Chromium is installed).
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, expect, it } from 'vitest';
import type { UserConfig } from '../../src/config/define-config.js';
import { htmlReporter } from '../../src/report/html.js';
import { removeTempDirs } from '../support/cli.js';
import { describeInChromium, sharedChromium, closePages } from '../support/chromium.js';
import { runProjectInProcess } from '../support/run-fixture-in-process.js';

describeInChromium('a judge panel in the HTML report', (executablePath) => {
  let browser: Browser | undefined;
  afterAll(async () => {
    await closePages(browser);
    removeTempDirs();
  });

  it('shows one line per member: score, verdict and reason', async () => {
    let path = '';
    const config = {
      evals: ['*.eval.yaml'],
      targets: { fixed: () => 'Your order shipped on Monday.' },
      judges: { a: { provider: 'fake', fixtures: 'a.yaml' }, b: { provider: 'fake', fixtures: 'b.yaml' } },
      judge: { panel: ['a', 'b'], aggregate: 'mean' },
    } as UserConfig;
    await runProjectInProcess(
      {
        files: {
          'a.yaml': '- score: 0.9\n  reason: A says yes\n',
          'b.yaml': '- score: 0.2\n  reason: B says no\n',
          'p.eval.yaml': 'suite: panel\ntarget: fixed\ncases:\n  - id: one\n    input: where?\n    assert:\n      - { type: judge, criteria: says when, threshold: 0.5 }\n',
        },
      },
      config,
      { cache: false, reporters: (dir) => [htmlReporter({ path: (path = join(dir, 'report.html')), outputDir: join(dir, '.agent-evals'), version: 'test' })] },
    );
    browser = await sharedChromium(executablePath);
    const page = await browser.newPage();
    await page.goto(pathToFileURL(path).href, { waitUntil: 'load' });
    await page.locator('details.case > summary').first().click();
    const trial = page.locator('details.trial').first();
    if (!(await trial.evaluate((d: { open?: boolean }) => d.open === true))) await trial.locator('> summary').click();
    // The trial's body is built on its toggle event, which fires after the click resolves: wait for it.
    await trial.locator('li.panel-member').first().waitFor();
    await expect(trial.locator('li.panel-member').allTextContents()).resolves.toEqual(['a 0.90 passed: A says yes', 'b 0.20 failed: B says no']);
  }, 60_000);
});
