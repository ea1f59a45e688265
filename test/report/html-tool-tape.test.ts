/**
 * The HTML report shows where a trial left the tool tape (`run --replay-tools`), in headless Chromium:
 * the case's "Tool tape" fact names the trial and the step, the trial's says how many calls were
 * replayed. A function target under a hand-made tape: its first call matches, its second does not.
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, expect, it } from 'vitest';
import { removeTempDirs } from '../support/cli.js';
import { describeInChromium, sharedChromium, closePages } from '../support/chromium.js';
import { runInProcess } from '../support/run-in-process.js';
import { htmlReporter } from '../../src/report/html.js';
import { toolTape } from '../../src/runner/loop/tool-tape.js';

const EVAL = `suite: t
target: agent
cases:
  - { id: c, input: hi, assert: [{ type: calledTool, tool: lookup }] }
`;

describeInChromium('the tool tape in the HTML report', (executablePath) => {
  let browser: Browser | undefined;
  afterAll(async () => {
    await closePages(browser);
    removeTempDirs();
  });

  it("shows the case's divergence and the trial's replayed calls", async () => {
    let path = '';
    const tape = toolTape(
      new Map([
        [
          't/c',
          new Map([
            [
              0,
              [
                { name: 'lookup', args: { q: 'a' }, result: 'A', isError: false },
                { name: 'lookup', args: { q: 'b' }, result: 'B', isError: false },
              ],
            ],
          ]),
        ],
      ]),
      false,
    );
    const run = await runInProcess({
      files: { 'evals/t.eval.yaml': EVAL },
      config: {
        trace: 'full',
        targets: {
          agent: async (_input, ctx) => {
            const a = await ctx.tool('lookup', { q: 'a' }, () => 'live a');
            const b = await ctx.tool('lookup', { q: 'c' }, () => 'live c');
            return `${a} ${b}`;
          },
        },
      },
      toolTape: tape,
      reporters: (dir) => {
        path = join(dir, 'out', 'report.html');
        return [htmlReporter({ path, outputDir: join(dir, '.agent-evals'), version: 'test' })];
      },
    });
    expect(run.results.cases[0]!.trials[0]!.reply).toBe('A live c');

    browser = await sharedChromium(executablePath);
    const page = await browser.newPage();
    await page.goto(pathToFileURL(path).href, { waitUntil: 'load' });
    const row = page.locator('details.case', { has: page.locator('summary .key', { hasText: 't/c' }) });
    await row.locator('> summary').click();
    const fact = (scope: typeof row) => scope.locator('dt', { hasText: 'Tool tape' }).locator('xpath=following-sibling::dd[1]').first().textContent();
    await expect(fact(row.locator('.case-body > dl.facts'))).resolves.toBe('trial 1: diverged from the tape at step 2: lookup called with other arguments than recorded');
    const trial = row.locator('details.trial').first();
    await trial.locator('> summary').click();
    await expect(fact(trial.locator('.trial-body > dl.facts'))).resolves.toBe('1 call replayed; diverged from the tape at step 2: lookup called with other arguments than recorded');
  }, 60_000);
});
