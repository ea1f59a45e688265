/**
 * The HTML report's run summary, in headless Chromium: each judge panel's agreement over the run
 * (Fleiss' κ) and every tool called outside its allowlist, as the terminal's closing block lists them.
 * A tool name is the agent's text: shown as text, never markup (skipped where no Chromium is installed).
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, expect, it } from 'vitest';
import type { UserConfig } from '../../src/config/define-config.js';
import type { TargetContext } from '../../src/index.js';
import { htmlReporter } from '../../src/report/html.js';
import { removeTempDirs } from '../support/cli.js';
import { describeInChromium, sharedChromium, closePages } from '../support/chromium.js';
import { explain, runProjectInProcess } from '../support/run-fixture-in-process.js';

const IDS = ['one', 'two', 'three', 'four'];
const member = (scores: number[]) => scores.map((s, i) => `- case: panel/${IDS[i]}\n  score: ${s}\n`).join('');
/** A tool name that would be markup if the page parsed it. */
const TOOL = '<img src=x onerror="document.title=1">drop_table';

describeInChromium('the run summary of the HTML report', (executablePath) => {
  let browser: Browser | undefined;
  afterAll(async () => {
    await closePages(browser);
    removeTempDirs();
  });

  it("lists each judge panel's agreement and each tool called outside its allowlist, as text", async () => {
    let path = '';
    const config = {
      evals: ['*.eval.yaml'],
      targets: {
        fixed: () => 'Your order shipped on Monday.',
        agent: async (_input: string, ctx: TargetContext) => {
          await ctx.tool('search', {}, async () => 'found');
          await ctx.tool(TOOL, {}, async () => 'dropped');
          return 'done';
        },
      },
      judges: { a: { provider: 'fake', fixtures: 'a.yaml' }, b: { provider: 'fake', fixtures: 'b.yaml' }, c: { provider: 'fake', fixtures: 'c.yaml' } },
      judge: { panel: ['a', 'b', 'c'] },
    } as UserConfig;
    // The scores of test/judges/panels.test.ts at threshold 0.7: items [2,1] [3,0] [0,3] [1,2], κ = 1/3.
    const cases = IDS.map((id) => `  - id: ${id}\n    input: where?\n    assert:\n      - { type: judge, criteria: says when, threshold: 0.7 }\n`).join('');
    const r = await runProjectInProcess(
      {
        files: {
          'a.yaml': member([0.9, 0.9, 0.1, 0.1]),
          'b.yaml': member([0.2, 0.9, 0.1, 0.9]),
          'c.yaml': member([0.8, 0.9, 0.1, 0.1]),
          'p.eval.yaml': `suite: panel\ntarget: fixed\ncases:\n${cases}`,
          't.eval.yaml': 'suite: tools\ntarget: agent\nonlyTools: [search]\ncases:\n  - id: call\n    input: go\n    assert: [{ type: contains, value: done }]\n',
        },
      },
      config,
      { cache: false, reporters: (dir) => [htmlReporter({ path: (path = join(dir, 'report.html')), outputDir: join(dir, '.agent-evals'), version: 'test' })] },
    );
    expect(r.results().summary.toolsOutsideAllowlist, explain(r)).toEqual([{ tool: TOOL, cases: ['tools/call'] }]);
    browser = await sharedChromium(executablePath);
    const page = await browser.newPage();
    await page.goto(pathToFileURL(path).href, { waitUntil: 'load' });
    const summary = page.locator('section.summary');
    await expect(summary.locator('dl.facts dt:text-is("Judge panel") + dd').allTextContents()).resolves.toEqual(["a, b, c: Fleiss' κ 0.33 over 4 judged assertions"]);
    const outside = summary.locator('p.outside-allowlist');
    await expect(outside.allTextContents()).resolves.toEqual([`Outside allowlist: ${TOOL} (tools/call)`]);
    // Text, not markup: no element was made from the name, and its handler never ran.
    await expect(outside.locator('img').count()).resolves.toBe(0);
    await expect(page.title()).resolves.not.toBe('1');
  }, 60_000);
});
