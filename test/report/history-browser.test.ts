/**
 * `agent-evals report --history` over 50 results files, opened in headless Chromium (Debian's
 * `chromium` through playwright-core): the pass-rate chart has one point per run, in `run.startedAt`
 * order (the files' names are in another order), a folder's file that is not a results file is passed
 * over with a warning and listed on the page, a hostile case id stays text, and the page makes no
 * request. Skipped, with a message, where no Chromium is installed; under CI a missing Chromium fails.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { removeTempDirs, tempDir, type CliResult } from '../support/cli.js';
import { runCliInProcess } from '../support/cli-in-process.js';
import { describeInChromium, watchPage, sharedChromium, closePages } from '../support/chromium.js';
import { HOSTILE_ID, historyCopy, historyRun, writeHistoryFiles } from '../support/history-files.js';

const RUNS = 50;

/** The little of an SVG circle these tests read (the test build has no DOM types). */
interface Circle {
  getAttribute(name: string): string | null;
  textContent: string | null;
}

describeInChromium('the history page in headless Chromium', (executablePath) => {
  let browser: Browser | undefined;
  let page: Page;
  let cli: CliResult;
  const dialogs: string[] = [];
  const errors: string[] = [];
  const requests: string[] = [];

  beforeAll(async () => {
    const dir = tempDir();
    const folder = join(dir, 'history');
    writeHistoryFiles(folder, await historyRun(), RUNS);
    // Beside them: a JSON file that is not a results file, and a folder under runs/ not named by a run id (not read).
    writeFileSync(join(folder, 'notes.json'), JSON.stringify({ note: 'not results' }));
    mkdirSync(join(folder, 'runs', 'r1'), { recursive: true });
    writeFileSync(join(folder, 'runs', 'r1', 'plan.json'), '{');
    cli = await runCliInProcess(['report', '--history', 'history', '-o', 'out/history.html'], { cwd: dir });
    const url = pathToFileURL(join(dir, 'out', 'history.html')).href;
    browser = await sharedChromium(executablePath);
    page = await browser.newPage();
    watchPage(page, dialogs, errors);
    page.on('request', (r) => {
      if (r.url() !== url) requests.push(r.url());
    });
    await page.goto(url, { waitUntil: 'load' });
  }, 120_000);

  afterAll(async () => {
    await closePages(browser);
    removeTempDirs();
  });

  it('writes the page, exit 0, warning of the file it passed over', () => {
    expect(cli.code).toBe(0);
    expect(cli.stdout).toContain(join('out', 'history.html'));
    expect(cli.stderr.trim().split('\n')).toEqual([expect.stringMatching(/^agent-evals: skipped history[/\\]notes\.json: not an agent-evals results file: /)]);
  });

  it('draws a pass-rate-over-runs chart with one point per results file', async () => {
    await expect(page.locator('svg.pass-rate circle.point').count()).resolves.toBe(RUNS);
    await expect(page.locator('svg.score circle.point').count()).resolves.toBe(RUNS);
    await expect(page.locator('svg.cost circle.point').count()).resolves.toBe(RUNS);
  });

  it('orders the runs by run.startedAt, not by file name', async () => {
    const points = await page
      .locator('svg.pass-rate circle.point')
      .evaluateAll((cs: Circle[]) => cs.map((c) => ({ x: Number(c.getAttribute('cx')), y: Number(c.getAttribute('cy')), title: c.textContent ?? '' })));
    // Left to right: run-0 … run-49, whose pass rates rise (0 … 1), so each point sits higher (smaller y) than the one before.
    expect(points.map((p) => /run-\d+/.exec(p.title)?.[0])).toEqual(Array.from({ length: RUNS }, (_, i) => `run-${i}`));
    for (let i = 1; i < RUNS; i++) {
      expect(points[i]!.x).toBeGreaterThan(points[i - 1]!.x);
      expect(points[i]!.y).toBeLessThan(points[i - 1]!.y);
    }
    // Each run named by its date, time and commit, not its date alone: runs of one day tell apart.
    expect(points[0]!.title).toBe('2026-11-01 00:00:00 UTC · 0000abc · run-0: 0%');
    expect(points[1]!.title).toBe('2026-11-01 01:00:00 UTC · 0001abc · run-1: 2%');
    const ticks = await page.locator('svg.pass-rate text.tick').allTextContents();
    expect(ticks).toContain('2026-11-01 00:00:00 UTC · 0000abc');
    expect(ticks).toContain('2026-11-03 01:00:00 UTC · 0031abc');
  });

  it('lists the case that flipped most first, with its sparkline', async () => {
    const first = page.locator('table.changed tbody tr').first();
    await expect(first.locator('td').allTextContents()).resolves.toEqual(['hist/flappy', String(RUNS - 1), '100%', expect.any(String), 'failed']);
    await expect(first.locator('svg.spark circle.dot').count()).resolves.toBe(RUNS);
    await expect(page.locator('.case-row').count()).resolves.toBe(3);
  });

  it('lists the folder file it passed over on the page', async () => {
    await expect(page.locator('ul.skipped li').allTextContents()).resolves.toEqual([expect.stringMatching(/^history[/\\]notes\.json: not an agent-evals results file/)]);
  });

  it('shows a hostile case id as text: no element made, no script run', async () => {
    await expect(page.locator('.case-row .key', { hasText: HOSTILE_ID }).textContent()).resolves.toBe(`hist/${HOSTILE_ID}`);
    await expect(page.locator('img').count()).resolves.toBe(0);
    expect(dialogs).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('makes no request', () => {
    expect(requests).toEqual([]);
  });

  it("lists a scored batch (`agent-evals score`) among the runs, marked scored, but draws no point of the runs' trend for it", async () => {
    const dir = tempDir();
    const base = await historyRun();
    for (let i = 0; i < 3; i++) {
      const r = historyCopy(base, i, 3);
      if (i === 1) r.run.scoredFrom = { files: ['prod.jsonl'], traces: 3, unmatched: 0, scoring: ['evals/s.score.yaml'] };
      mkdirSync(join(dir, 'h'), { recursive: true });
      writeFileSync(join(dir, 'h', `r${i}.json`), JSON.stringify(r));
    }
    expect((await runCliInProcess(['report', '--history', 'h', '-o', 'scored.html'], { cwd: dir })).code).toBe(0);
    const scored = await browser!.newPage();
    await scored.goto(pathToFileURL(join(dir, 'scored.html')).href, { waitUntil: 'load' });
    for (const chart of ['pass-rate', 'score', 'cost']) await expect(scored.locator(`svg.${chart} circle.point`).count()).resolves.toBe(2);
    await expect(scored.locator('details.runs tbody tr td:nth-child(3)').allTextContents()).resolves.toEqual(['', 'scored: 3 recorded traces', '']);
    await scored.close();
  });
});
