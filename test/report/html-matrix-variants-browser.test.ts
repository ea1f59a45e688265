/**
 * The HTML report's matrix grid over a model-agent target's settings, in headless Chromium: a suite
 * whose matrix varies effort × instructions against the fake OpenAI API shows one grid whose columns
 * (and comparison rows) are the four variants by name; a variant name holding markup (inline
 * instructions) is shown as text, never made into elements. Skipped where no Chromium is installed.
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, expect, it } from 'vitest';
import { htmlReporter } from '../../src/report/html.js';
import { removeTempDirs } from '../support/cli.js';
import { closePages, describeInChromium, sharedChromium, watchPage } from '../support/chromium.js';
import { startFakeOpenAI } from '../support/fake-openai.js';
import { runInProcess } from '../support/run-in-process.js';

const MARKUP = '<img src=x onerror=alert(1)>';

describeInChromium('the matrix grid of settings variants in headless Chromium', (executablePath) => {
  let browser: Browser | undefined;
  afterAll(async () => {
    await closePages(browser);
    removeTempDirs();
  });

  it('names each variant as a column and a comparison row, its markup as text', async () => {
    const fake = await startFakeOpenAI({ script: () => ({ text: 'hello' }) });
    let path = '';
    try {
      const run = await runInProcess({
        files: {
          'grid.eval.yaml': [
            'suite: grid',
            'target: agent',
            'matrix:',
            '  effort: [low, high]',
            `  instructions: ['${MARKUP}', Plain.]`,
            'cases:',
            '  - { id: greet, input: hi, assert: [{ type: contains, value: hello }] }',
            '',
          ].join('\n'),
        },
        config: { targets: { agent: { model: { provider: 'openai', model: 'gpt-5.5', baseURL: fake.url } } } },
        env: { ...process.env, OPENAI_API_KEY: 'sk-test' },
        reporters: (dir) => {
          path = join(dir, 'out', 'report.html');
          return [htmlReporter({ path, outputDir: join(dir, '.agent-evals'), version: 'test' })];
        },
      });
      expect(run.exitCode).toBe(0);
      expect(fake.bodies.map((b) => [b.reasoning_effort, b.messages[0].content])).toEqual([
        ['low', MARKUP],
        ['low', 'Plain.'],
        ['high', MARKUP],
        ['high', 'Plain.'],
      ]);
    } finally {
      await fake.close();
    }
    const names = [`agent[effort=low,instructions=${MARKUP}]`, 'agent[effort=low,instructions=Plain.]', `agent[effort=high,instructions=${MARKUP}]`, 'agent[effort=high,instructions=Plain.]'];
    browser = await sharedChromium(executablePath);
    const page = await browser.newPage();
    const dialogs: string[] = [];
    const errors: string[] = [];
    watchPage(page, dialogs, errors);
    await page.goto(pathToFileURL(path).href, { waitUntil: 'load' });
    await expect(page.locator('.matrix .mx-grid').count()).resolves.toBe(1);
    await expect(page.locator('.mx-grid thead th.mx-variant').allTextContents()).resolves.toEqual(names);
    await expect(page.locator('.mx-table tbody tr th').allTextContents()).resolves.toEqual(names);
    await expect(page.locator('.matrix h3').first().textContent()).resolves.toContain('4 effort × instructions values');
    await expect(page.locator('.matrix img').count()).resolves.toBe(0);
    expect(dialogs).toEqual([]);
    expect(errors).toEqual([]);
  }, 60_000);
});
