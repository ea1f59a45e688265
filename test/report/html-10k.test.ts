/**
 * A run report of 10,000 trials (issue 27): 2,000 cases × 5 trials, each trial a real one of the hostile
 * run (a tool call and a reply, `trace: 'full'`, the case's input and reference), the failing case's
 * and the passing case's trials mixed as a real run's would be. The page stays under 15 MB and shows
 * its first cases (failures first) in under 2 s, read from the page's own 'agent-evals:first-cases'
 * mark, with the charts and the judge tally built at load from every trial. The bounds are the issue's
 * and generous: measured on the shared 2-core machine on 2026-12-02 (see docs/guide/report.md), this
 * page is about 6 MB and its first cases come at a few hundred milliseconds. How soon they come is
 * wall time, which a busy machine stretches: `npm run bench:html` measures it; this test checks what makes
 * it soon (one page of rows built before the mark, not 2,000) and logs the time.
 */
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { CaseResult } from '../../src/core/results-schema.js';
import { removeTempDirs, tempDir } from '../support/cli.js';
import { describeInChromium, sharedChromium, closePages } from '../support/chromium.js';
import { runHostile } from '../support/html-page.js';
import { watchNetwork, type NetworkWatch } from '../support/no-network.js';
import { writePage } from '../support/run-report-page.js';

const CASES = 2000;
const TRIALS = 5;
const MB = 1024 * 1024;
const PAGE_BOUND = 15 * MB;

describeInChromium('a run report of 10,000 trials', (executablePath) => {
  let browser: Browser | undefined;
  let page: Page;
  let net: NetworkWatch;
  let path = '';
  const errors: string[] = [];

  beforeAll(async () => {
    const { run } = await runHostile();
    const evil = run.results.cases.find((c) => c.id === 'evil')!;
    const fine = run.results.cases.find((c) => c.id === 'fine')!;
    // Every fourth case fails (the hostile case's trial, with its tool call), the rest pass.
    const cases = Array.from({ length: CASES }, (_, i): CaseResult => {
      const c = structuredClone(i % 4 === 3 ? evil : fine);
      c.id = `case-${String(i).padStart(4, '0')}`;
      const one = c.trials[0]!;
      c.trials = Array.from({ length: TRIALS }, (_, k) => ({ ...structuredClone(one), index: k, reply: `${one.reply} (${i}.${k})` }));
      c.passed = c.verdict === 'passed' ? TRIALS : 0;
      return c;
    });
    path = await writePage(join(tempDir(), 'report.html'), { ...run.results, cases });
    browser = await sharedChromium(executablePath);
    page = await browser.newPage();
    page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
    net = await watchNetwork(page);
    await page.goto(pathToFileURL(path).href, { waitUntil: 'load' });
  }, 240_000);

  afterAll(async () => {
    await closePages(browser);
    removeTempDirs();
  });

  it('writes a page under 15 MB', () => {
    const size = statSync(path).size;
    console.log(`10,000-trial run report: ${(size / MB).toFixed(2)} MB`);
    expect(size).toBeLessThan(PAGE_BOUND);
  });

  it('marks its first cases once one page of rows is built, failures first', async () => {
    await page.waitForFunction(() => performance.getEntriesByName('agent-evals:first-cases').length > 0);
    const firstCases = await page.evaluate(() => performance.getEntriesByName('agent-evals:first-cases')[0]!.startTime);
    console.log(`10,000-trial run report: first cases at ${firstCases.toFixed(0)} ms`);
    expect(await page.locator('details.case').first().isVisible()).toBe(true);
    await expect(page.locator('details.case > summary .key').first().textContent()).resolves.toBe('hostile/case-0003');
    await expect(page.locator('.count').last().textContent()).resolves.toBe(`${CASES} of ${CASES} cases`);
    // One page of rows, not 2,000; the charts counted every trial.
    await expect(page.locator('details.case').count()).resolves.toBe(200);
    const counted = await page.locator('figure.scores svg text.chart-count').allTextContents();
    expect(counted.map(Number).reduce((a, b) => a + b, 0)).toBe(CASES * TRIALS);
  });

  it('made no network request and no page error', () => {
    expect(net.attempts()).toEqual([]);
    expect(errors).toEqual([]);
  });
});
