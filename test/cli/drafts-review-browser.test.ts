/**
 * The issue's must-show for draft cases, end to end: an eval file shaped like `agent-evals generate`'s
 * output (every case `draft: true`) runs nothing (exit 2, "only drafts"); `agent-evals review
 * <file.eval.yaml>` (the built CLI's `main` in-process) serves the drafts page, headless Chromium
 * (playwright-core) clicks Accept on three cards, Ctrl-C stops the server (exit 0), and `run` then
 * runs exactly those three. A second session edits a draft with a bad assertion (refused, the reason
 * on its card, the file byte-identical), fixes it and accepts it (the run uses the edited input),
 * rejects one (gone from the file), and meets a draft another editor accepted meanwhile (reported,
 * not written again). Comments of the file survive every write. Needs dist/ (`npm run build`).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { removeTempDirs } from '../support/cli.js';
import { runCliInProcess, startCliInProcess, type InProcessCli } from '../support/cli-in-process.js';
import { closePages, describeInChromium, sharedChromium, watchPage } from '../support/chromium.js';
import { HOSTILE_INPUT, HOSTILE_REPLY } from '../support/html-page.js';
import { ResultsSchema, type Results } from '../../src/core/results-schema.js';
import { draftProject, generatedEvalFile, GENERATED } from '../support/draft-project.js';

const URL_LINE = /^(http:\/\/127\.0\.0\.1:\d+\/[A-Za-z0-9_-]+\/)$/m;
const ACCEPTED = ['order-status-1', 'returns-1', 'shipping-1'];

describeInChromium('agent-evals review <file.eval.yaml>: draft cases in headless Chromium', (executablePath) => {
  let browser: Browser | undefined;
  let dir = '';
  let file = '';
  const sessions: InProcessCli[] = [];
  const errors: string[] = [];
  const text = () => readFileSync(file, 'utf8');
  const results = (name: string): Results => ResultsSchema.parse(JSON.parse(readFileSync(join(dir, name), 'utf8')));
  const card = (page: Page, id: string) => page.locator(`section.draft[data-id="${id}"]`);

  /** Starts `review gen.eval.yaml`, waits for its one stdout line (the tokened address) and opens it. */
  async function open(): Promise<{ cli: InProcessCli; page: Page }> {
    const cli = startCliInProcess(['review', 'gen.eval.yaml'], { cwd: dir });
    sessions.push(cli);
    await cli.waitForStdout(URL_LINE);
    const page = await browser!.newPage();
    // A dialog is as wrong as an error here (a generated text run as markup would raise one).
    watchPage(page, errors, errors);
    await page.goto(URL_LINE.exec(cli.stdout())![1]!, { waitUntil: 'load' });
    return { cli, page };
  }

  /** Waits until every post of the page has been answered. */
  async function settled(page: Page): Promise<string | null> {
    // A locator, not a page function: the page's CSP lets no test code be evaluated in it.
    await page.locator('#status[data-pending="0"]').waitFor({ timeout: 30_000 });
    return page.locator('#status').textContent();
  }

  /** Ctrl-C: the server stops and the command ends with 0 (every action is already written). */
  async function stop(cli: InProcessCli): Promise<string> {
    expect(cli.kill('SIGINT')).toBe(true);
    const done = await cli.done;
    expect(done.code, done.stderr).toBe(0);
    expect(done.stdout.match(/http:\/\//g)).toHaveLength(1);
    return done.stderr;
  }

  beforeAll(async () => {
    // Generated text is data: a reference and an input that would run script as markup.
    const specs = GENERATED.map((d) => (d.id === 'returns-2' ? { ...d, reference: HOSTILE_REPLY } : d.id === 'shipping-2' ? { ...d, input: `${d.input} ${HOSTILE_INPUT}` } : d));
    dir = draftProject({ 'gen.eval.yaml': generatedEvalFile(specs) });
    file = join(dir, 'gen.eval.yaml');
    browser = await sharedChromium(executablePath);
  }, 60_000);

  afterAll(async () => {
    await closePages(browser);
    for (const s of sessions) s.kill('SIGINT');
    await Promise.all(sessions.map((s) => s.done.catch(() => {})));
    removeTempDirs();
  });

  it('run skips a file of drafts alone: exit 2, saying why', async () => {
    const r = await runCliInProcess(['run', '--json', 'r0.json'], { cwd: dir, timeoutMs: 60_000 });
    expect(r.code, r.stdout + r.stderr).toBe(2);
    expect(r.stderr).toContain('gen.eval.yaml: the suite holds only draft cases: 6 drafts (generated, not reviewed yet) and nothing else to run.');
    expect(r.stderr).toContain('agent-evals review gen.eval.yaml');
  }, 60_000);

  it('accepting 3 drafts in the page makes exactly those 3 run; the comments of the file survive', async () => {
    const { cli, page } = await open();
    await expect(page.locator('section.draft').count()).resolves.toBe(6);
    const first = card(page, 'order-status-1');
    await expect(first.locator('.intent').textContent()).resolves.toBe('intent: order status');
    await expect(first.locator('.kind').textContent()).resolves.toBe('kind: typical');
    await expect(first.locator('.block.reference pre').textContent()).resolves.toBe('It ships tomorrow.');
    await expect(first.locator('.block.assert pre').textContent()).resolves.toBe('- { type: calledTool, tool: lookup_order }\n- { type: notCalledTool, tool: search_faq }\n');
    // Shown as text, never run.
    await expect(card(page, 'returns-2').locator('.block.reference pre').textContent()).resolves.toBe(HOSTILE_REPLY);

    for (const id of ACCEPTED) await card(page, id).locator('button.accept').click();
    await expect(settled(page)).resolves.toBe('All changes saved');
    await expect(page.locator('section.draft').count()).resolves.toBe(3);
    await expect(page.locator('.progress').textContent()).resolves.toBe('3 drafts in gen.eval.yaml · 3 accepted · 0 edited · 0 rejected');
    const stderr = await stop(cli);
    expect(stderr).toContain('Reviewing 6 draft cases of gen.eval.yaml');
    expect(stderr).toContain('Review stopped: 3 accepted, 0 edited, 0 rejected; 3 drafts left in gen.eval.yaml');

    const now = text();
    expect(now).toContain('# Drafted by agent-evals generate: review before these count.\n');
    for (const d of GENERATED) expect(now).toContain(`  # ${d.intent} (${d.kind})\n  - id: ${d.id}\n`);
    expect(now.match(/draft: true/g)).toHaveLength(3);

    const r = await runCliInProcess(['run', '--json', 'r1.json'], { cwd: dir, timeoutMs: 60_000 });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stderr).toContain('3 draft cases skipped (review them with `agent-evals review gen.eval.yaml`, or --include-drafts)');
    const ran = results('r1.json');
    expect(ran.cases.map((c) => c.id).sort()).toEqual([...ACCEPTED].sort());
    expect(ran.summary.draftsSkipped).toBe(3);
  }, 120_000);

  it('a bad assertion edit is refused with the reason and leaves the file byte-identical; fixed, accepted, it runs with the edited input; reject removes a case', async () => {
    const { cli, page } = await open();
    await expect(page.locator('section.draft').count()).resolves.toBe(3);
    const before = readFileSync(file);
    const edited = card(page, 'order-status-2');
    await edited.locator('button.edit').click();
    await edited.locator('textarea[name="input"]').fill('Where is order D4 now?');
    await edited.locator('textarea[name="assert"]').fill('- { type: calledTool }\n');
    await edited.locator('button.save').click();
    await expect(settled(page)).resolves.toMatch(/^Not saved: 400 gen\.eval\.yaml:\d+: cases\[\d\]\.assert\[0\]\.tool: /);
    await expect(edited.locator('.error').textContent()).resolves.toMatch(/assert\[0\]\.tool/);
    // The form stays open with what was typed.
    await expect(edited.locator('textarea[name="input"]').inputValue()).resolves.toBe('Where is order D4 now?');
    expect(readFileSync(file).equals(before)).toBe(true);

    await edited.locator('textarea[name="assert"]').fill('# checked by hand\n- { type: calledTool, tool: lookup_order }\n- { type: contains, value: D4 }\n');
    await edited.locator('button.save').click();
    await expect(settled(page)).resolves.toBe('All changes saved');
    await expect(edited.locator('.block.input pre').textContent()).resolves.toBe('Where is order D4 now?');
    expect(text()).toContain('# checked by hand');
    await edited.locator('button.accept').click();
    await card(page, 'shipping-2').locator('button.reject').click();
    await expect(settled(page)).resolves.toBe('All changes saved');

    // Another editor accepts returns-2 meanwhile: the page's Accept reports it, the file is not written again.
    const elsewhere = text().replace(/( {2}- id: returns-2\n) {4}draft: true\n/, '$1');
    expect(elsewhere).not.toBe(text());
    writeFileSync(file, elsewhere);
    await card(page, 'returns-2').locator('button.accept').click();
    await expect(settled(page)).resolves.toMatch(/^Not saved: 409 "returns-2" is no longer a draft/);
    expect(text()).toBe(elsewhere);

    const stderr = await stop(cli);
    expect(stderr).toContain('Review stopped: 1 accepted, 1 edited, 1 rejected; 0 drafts left in gen.eval.yaml');
    expect(text()).not.toContain('shipping-2');
    expect(text()).not.toContain('draft: true');

    const r = await runCliInProcess(['run', '--json', 'r2.json'], { cwd: dir, timeoutMs: 60_000 });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const ran = results('r2.json');
    expect(ran.cases.map((c) => c.id).sort()).toEqual(['order-status-1', 'order-status-2', 'returns-1', 'returns-2', 'shipping-1']);
    const d4 = ran.cases.find((c) => c.id === 'order-status-2')!;
    expect(d4.input).toBe('Where is order D4 now?');
    expect(d4.trials[0]!.reply).toBe('answer: Where is order D4 now?');
    expect(ran.summary.draftsSkipped).toBeUndefined();
    // Chromium logs each refused post (the 400 and the 409 above) as a failed load: those two were asked for.
    expect(errors.filter((e) => !/^console: Failed to load resource: the server responded with a status of (400|409) /.test(e))).toEqual([]);
    expect(errors).toHaveLength(2);
  }, 120_000);
});
