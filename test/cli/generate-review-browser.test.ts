/**
 * Issue 47's generate-to-suite path end to end: `agent-evals generate` writes drafts from a fake
 * generator (the fake OpenAI server, structured output), `run` refuses a file of drafts alone, the
 * drafts page in headless Chromium accepts three, and `run` then runs exactly those three. The
 * file reviewed is the one generate wrote, not a hand-made look-alike. Needs dist/ (`npm run build`).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { load } from 'js-yaml';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { removeTempDirs } from '../support/cli.js';
import { runCliInProcess, startCliInProcess } from '../support/cli-in-process.js';
import { closePages, describeInChromium, sharedChromium, watchPage } from '../support/chromium.js';
import { startFakeOpenAI, type FakeOpenAI } from '../support/fake-openai.js';
import { writeProject } from '../support/temp-project.js';

const CONFIG = `export default {
  evals: ['evals/*.eval.yaml'],
  outputDir: '.out',
  targets: { echo: (input) => ({ reply: 'you asked: ' + input }) },
  generate: { model: 'openai:generator-model' },
};
`;

const item = (intent: string, input: string) => ({ intent, kind: 'typical', input, expectedTools: [], avoidTools: [], reference: null });
const ITEMS = [
  item('orders', 'Where is my parcel from last Tuesday?'),
  item('orders', 'Cancel the blender I bought yesterday.'),
  item('orders', 'Which courier delivers to Oslo?'),
  item('account', 'How do I reset my password?'),
  item('account', 'Change the email address on my profile.'),
  item('account', 'Close my membership and delete my data.'),
];

const URL_LINE = /^(http:\/\/127\.0\.0\.1:\d+\/[A-Za-z0-9_-]+\/)$/m;

describeInChromium('generate, then review the drafts in headless Chromium, then run', (executablePath) => {
  let fake: FakeOpenAI | undefined;
  let browser: Browser | undefined;

  // Launched before any CLI starts: Playwright puts its own SIGINT listener on the process, and one put
  // on while the review runs would count as the CLI's, so the test's Ctrl-C would reach it (it ends the process).
  beforeAll(async () => {
    browser = await sharedChromium(executablePath);
  }, 60_000);

  afterAll(async () => {
    await closePages(browser);
    await fake?.close();
    removeTempDirs();
  });

  it('accepting 3 of the generated drafts makes exactly those 3 run', async () => {
    fake = await startFakeOpenAI({
      script: (body: { model: string; response_format?: { json_schema?: { name?: string } } }) =>
        body.model === 'generator-model' && body.response_format?.json_schema?.name === 'generated_cases' ? { json: { items: ITEMS } } : { text: `unexpected request to ${body.model}` },
    });
    const dir = writeProject({ 'evals.config.mjs': CONFIG });
    const env = { OPENAI_API_KEY: 'sk-test-dummy-key-000000', OPENAI_BASE_URL: fake.url };
    const gen = await runCliInProcess(['generate', '--target', 'echo', '--count', '6', '--out', 'evals/gen.eval.yaml'], { cwd: dir, env });
    expect(gen.code, gen.stderr).toBe(0);
    const ids = (load(readFileSync(join(dir, 'evals', 'gen.eval.yaml'), 'utf8')) as { cases: Array<{ id: string; draft: boolean }> }).cases.map((c) => c.id);
    expect(ids).toHaveLength(6);

    const refused = await runCliInProcess(['run'], { cwd: dir, env });
    expect(refused.code, refused.stderr).toBe(2);
    expect(refused.stderr).toContain('holds only draft cases');

    const accepted = [ids[0]!, ids[2]!, ids[4]!];
    const review = startCliInProcess(['review', 'evals/gen.eval.yaml'], { cwd: dir, env });
    await review.waitForStdout(URL_LINE);
    const page = await browser!.newPage();
    const problems: string[] = [];
    watchPage(page, problems, problems);
    await page.goto(URL_LINE.exec(review.stdout())![1]!, { waitUntil: 'load' });
    await expect(page.locator('section.draft').count()).resolves.toBe(6);
    for (const id of accepted) await page.locator(`section.draft[data-id="${id}"] button.accept`).click();
    await page.locator('#status[data-pending="0"]').waitFor({ timeout: 30_000 });
    await expect(page.locator('section.draft').count()).resolves.toBe(3);
    expect(review.kill('SIGINT')).toBe(true);
    const done = await review.done;
    expect(done.code, done.stderr).toBe(0);
    expect(done.stderr).toContain('Review stopped: 3 accepted, 0 edited, 0 rejected; 3 drafts left in evals/gen.eval.yaml');
    expect(problems).toEqual([]);

    const ran = await runCliInProcess(['run', '--json', 'after.json'], { cwd: dir, env });
    expect(ran.stderr).toContain('3 draft cases skipped');
    const results = JSON.parse(readFileSync(join(dir, 'after.json'), 'utf8')) as { cases: Array<{ id: string }>; summary: { draftsSkipped?: number } };
    expect(results.cases.map((c) => c.id).sort()).toEqual([...accepted].sort());
    expect(results.summary.draftsSkipped).toBe(3);
  }, 120_000);
});
