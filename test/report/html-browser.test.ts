/**
 * The HTML report in a real browser: Debian's Chromium, driven by playwright-core. The hostile run's
 * page must open with no dialog, no page error and no console error (a CSP violation is reported
 * there), list its cases, and drill down to the trial's tool call with the hostile text shown as text.
 * Skipped, with a message, where no Chromium is installed.
 */
import { pathToFileURL } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeTempDirs } from '../support/cli.js';
import { chromiumArgs, findChromium } from '../support/chromium.js';
import { HOSTILE_REPLY, HOSTILE_RESULT, runHostile } from '../support/html-page.js';

const executablePath = findChromium();
if (!executablePath) console.warn('chromium not installed: apt-get install chromium to run the HTML report browser test');

describe.skipIf(!executablePath)('the HTML report in headless Chromium', () => {
  let browser: Browser | undefined;
  let page: Page;
  const dialogs: string[] = [];
  const errors: string[] = [];

  beforeAll(async () => {
    const { path } = await runHostile();
    browser = await chromium.launch({ executablePath, args: chromiumArgs() });
    page = await browser.newPage();
    page.on('dialog', (d) => {
      dialogs.push(`${d.type()}: ${d.message()}`);
      void d.dismiss();
    });
    page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(`console: ${m.text()}`);
    });
    await page.goto(pathToFileURL(path).href, { waitUntil: 'load' });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    removeTempDirs();
  });

  it('lists the cases', async () => {
    await expect(page.locator('details.case > summary .key').allTextContents()).resolves.toEqual(['hostile/evil', 'hostile/fine']);
    await expect(page.locator('.count').textContent()).resolves.toBe('2 of 2 cases');
  });

  it('drills down to the trial and shows the hostile tool result and reply as text', async () => {
    const evil = page.locator('details.case', { has: page.locator('summary .key', { hasText: 'hostile/evil' }) });
    await evil.locator('> summary').click();
    const trial = evil.locator('details.trial').first();
    await trial.locator('> summary').click();
    const tool = trial.locator('.tool');
    await expect(tool.locator('> .label').textContent()).resolves.toBe('Tool call: lookup');
    const result = tool.locator('.block.result pre');
    expect(await result.isVisible()).toBe(true);
    expect(await result.textContent()).toBe(HOSTILE_RESULT);
    const reply = trial.locator('.block.agent pre');
    expect(await reply.isVisible()).toBe(true);
    expect(await reply.textContent()).toBe(HOSTILE_REPLY);
  }, 30_000);

  it('ran no hostile markup: no dialog, no page or console error, no <img> and one page script', async () => {
    // Let anything the hostile text could have started (an image error handler) have its turn.
    await page.evaluate(() => new Promise((r) => setTimeout(r, 200)));
    expect(dialogs).toEqual([]);
    expect(errors).toEqual([]);
    await expect(page.locator('img').count()).resolves.toBe(0);
    await expect(page.locator('script').count()).resolves.toBe(2);
  });
});
