/**
 * The HTML report's matrix grid in headless Chromium: a suite run over two targets (three trials a
 * case, early stop off) shows one grid with a column per target, each cell the case's verdict and its
 * passes of N; the row whose targets disagree is marked and says why; a reply is built only when its
 * cell is opened, and a reply holding markup stays text. Pass rates a quarter or more apart mark a
 * row whose verdicts agree. A reply over the field limit is cut as in the case list. A suite of 250
 * cases shows its grid 100 rows at a time. A run without a matrix shows no matrix section. Skipped,
 * with a message, where no Chromium is installed; under CI a missing Chromium fails.
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { watchNetwork, type NetworkWatch } from '../support/no-network.js';
import type { CaseResult } from '../../src/core/results-schema.js';
import { caseKey } from '../../src/core/matrix.js';
import { htmlReporter } from '../../src/report/html.js';
import { writeHtmlReport } from '../../src/report/html-page.js';
import { FIELD_LIMIT } from '../../src/report/html-cut.js';
import { removeTempDirs, tempDir } from '../support/cli.js';
import { describeInChromium, watchPage, sharedChromium, closePages } from '../support/chromium.js';
import { runHostile } from '../support/html-page.js';
import { runInProcess, type InProcessRun } from '../support/run-in-process.js';

/** A reply that would make elements (and run script) if the page put it in as markup. */
const MARKUP_REPLY = '<b>bold</b><img src=x onerror=alert(1)> x';

const EVALS = `suite: grid
matrix: { target: [alpha, beta] }
repeat: 3
cases:
  - { id: same, input: hello, assert: [{ type: contains, value: hi }] }
  - { id: split, input: order, assert: [{ type: contains, value: A1 }] }
  - { id: markup, input: markup, assert: [{ type: contains, value: x }] }
`;

/** Both targets greet and echo the markup; only alpha names the order, so `split` passes on alpha alone. */
const reply = (knowsOrder: boolean) => (input: string) => (input === 'order' ? (knowsOrder ? 'order A1 is here' : 'no idea') : input === 'markup' ? MARKUP_REPLY : 'hi there');

async function matrixPage(): Promise<{ run: InProcessRun; path: string }> {
  let path = '';
  const run = await runInProcess({
    files: { 'grid.eval.yaml': EVALS },
    config: { targets: { alpha: reply(true), beta: reply(false) } },
    flags: { earlyStop: false },
    reporters: (dir) => {
      path = join(dir, 'out', 'report.html');
      return [htmlReporter({ path, outputDir: join(dir, '.agent-evals'), version: 'test' })];
    },
  });
  return { run, path };
}

/** The grid's body as text: per row, its case id, whether it is marked as differing, and each cell's verdict and N. */
interface ShownRow {
  id: string;
  differs: boolean;
  why: string;
  cells: string[];
}
const GRID_ROWS = `Array.from(document.querySelectorAll('.mx-grid tbody tr')).map((tr) => ({
  id: tr.querySelector('.mx-case .key').textContent,
  differs: tr.classList.contains('mx-differs'),
  why: tr.querySelector('.mx-why')?.textContent ?? '',
  cells: Array.from(tr.querySelectorAll('td.mx-cell')).map((td) => td.querySelector('.verdict').textContent + ' ' + td.querySelector('.mx-n').textContent),
}))`;

describeInChromium('the matrix grid of the HTML report in headless Chromium', (executablePath) => {
  let browser: Browser | undefined;
  let page: Page;
  /** The page every other report of this file is opened in, one after another (a navigation is far cheaper than a fresh context). */
  let other: Page;
  let run: InProcessRun;
  const errors: string[] = [];
  const dialogs: string[] = [];
  let net: NetworkWatch;

  beforeAll(async () => {
    const made = await matrixPage();
    run = made.run;
    browser = await sharedChromium(executablePath);
    page = await browser.newPage();
    watchPage(page, dialogs, errors);
    net = await watchNetwork(page);
    await page.goto(pathToFileURL(made.path).href, { waitUntil: 'load' });
    other = await browser.newPage();
  }, 60_000);

  afterAll(async () => {
    await closePages(browser);
    removeTempDirs();
  });

  it('renders a matrix run of two targets as a grid: a column per target, a row per case, verdict and N per cell', async () => {
    expect(run.results.cases).toHaveLength(6);
    await expect(page.locator('.matrix .mx-grid').count()).resolves.toBe(1);
    await expect(page.locator('.mx-grid thead th.mx-variant').allTextContents()).resolves.toEqual(['alpha', 'beta']);
    const rows = await page.evaluate<ShownRow[]>(GRID_ROWS);
    expect(rows.map((r) => [r.id, r.cells])).toEqual([
      ['same', ['passed 3/3 passed (100.0%)', 'passed 3/3 passed (100.0%)']],
      ['split', ['passed 3/3 passed (100.0%)', 'failed 0/3 passed (0.0%)']],
      ['markup', ['passed 3/3 passed (100.0%)', 'passed 3/3 passed (100.0%)']],
    ]);
  });

  it("shows the suite's comparison table: a row per target, pass rate with its interval, the better target's cases passed marked best", async () => {
    const table = run.results.summary.matrix![0]!;
    const rows = page.locator('.mx-table tbody tr');
    await expect(rows.locator('th').allTextContents()).resolves.toEqual(['alpha', 'beta']);
    const alpha = rows.nth(0).locator('td');
    await expect(alpha.nth(0).textContent()).resolves.toBe('3/3 \u2605');
    await expect(alpha.nth(0).getAttribute('class')).resolves.toBe('best');
    await expect(rows.nth(1).locator('td').nth(0).textContent()).resolves.toBe('2/3');
    // Beta passed 6 of 9 trials; its interval as the results hold it.
    const beta = table.rows[1]!;
    expect(beta.passRate).toMatchObject({ passed: 6, trials: 9 });
    const pct = (x: number) => (x * 100).toFixed(1) + '%';
    await expect(rows.nth(1).locator('td').nth(2).textContent()).resolves.toBe(`66.7% (6/9, ${pct(beta.interval!.low)} to ${pct(beta.interval!.high)})`);
  });

  it('marks the row whose targets disagree, and says why; rows that agree are not marked', async () => {
    const rows = await page.evaluate<ShownRow[]>(GRID_ROWS);
    expect(rows.map((r) => [r.id, r.differs, r.why])).toEqual([
      ['same', false, ''],
      ['split', true, 'verdicts differ: passed on alpha, failed on beta'],
      ['markup', false, ''],
    ]);
    // The filter shows the differing rows alone.
    await page.locator('.mx-tools input[type=checkbox]').check();
    await expect(page.locator('.mx-grid tbody tr .mx-case .key').allTextContents()).resolves.toEqual(['split']);
    await page.locator('.mx-tools input[type=checkbox]').uncheck();
    await expect(page.locator('.mx-grid tbody tr').count()).resolves.toBe(3);
  });

  it('builds a reply only when its cell is opened, and shows a reply holding markup as text', async () => {
    await expect(page.locator('.mx-reply pre').count()).resolves.toBe(0);
    const cell = page
      .locator('.mx-grid tbody tr', { has: page.locator('.mx-case .key', { hasText: 'markup' }) })
      .locator('td.mx-cell')
      .nth(1);
    await cell.locator('.mx-reply > summary').click();
    const pre = cell.locator('.mx-reply .block.agent pre');
    await expect(pre.textContent()).resolves.toBe(MARKUP_REPLY);
    expect(await pre.isVisible()).toBe(true);
    await expect(cell.locator('.mx-reply .block.agent .label').textContent()).resolves.toBe('Reply (trial 1 of 3)');
    await expect(page.locator('.mx-reply pre').count()).resolves.toBe(1);
    // The reply's markup made no element and ran nothing.
    await expect(page.locator('b, img').count()).resolves.toBe(0);
    await page.evaluate(() => new Promise((r) => setTimeout(r, 200)));
    expect(dialogs).toEqual([]);
    expect(errors).toEqual([]);
  });

  /** Writes the run's head with these cases as a page and opens it in the other tab. */
  async function openCases(cases: CaseResult[]): Promise<Page> {
    const { cases: _ran, ...head } = run.results;
    const path = join(tempDir(), 'page.html');
    await writeHtmlReport(
      path,
      head,
      cases.map((c) => ({ json: JSON.stringify(c), key: caseKey(c) })),
    );
    await other.goto(pathToFileURL(path).href, { waitUntil: 'load' });
    return other;
  }
  /** The run's `split` case on each target, as a copy with another id. */
  const split = (id: string): CaseResult[] =>
    run.results.cases
      .filter((c) => c.id === 'split')
      .map((t) => {
        const c = structuredClone(t);
        c.id = id;
        return c;
      });

  it('marks a row whose verdicts agree but whose pass rates are a quarter or more apart, and not one closer', async () => {
    // Both targets passed; 3/3 against 2/3 (33 points apart) is marked, 3/3 against 3/3 is not.
    const [a1, b1] = split('gap');
    const [a2, b2] = split('even');
    for (const [b, passed] of [
      [b1!, 2],
      [b2!, 3],
    ] as const) {
      b.verdict = 'passed';
      b.passed = passed;
      b.passRate = { ...b.passRate!, passed, rate: passed / 3 };
    }
    const opened = await openCases([a1!, b1!, a2!, b2!]);
    const rows = await opened.evaluate<ShownRow[]>(GRID_ROWS);
    expect(rows.map((r) => [r.id, r.differs, r.why, r.cells])).toEqual([
      ['gap', true, 'pass rates differ by 33 points', ['passed 3/3 passed (100.0%)', 'passed 2/3 passed (66.7%)']],
      ['even', false, '', ['passed 3/3 passed (100.0%)', 'passed 3/3 passed (100.0%)']],
    ]);
  }, 60_000);

  it('shows a reply over the field limit cut, as the case list does: collapsed, with a link to its whole text', async () => {
    const [a, b] = split('long');
    const long = 'long reply ' + 'y'.repeat(FIELD_LIMIT * 2);
    b!.trials[0]!.reply = long;
    const opened = await openCases([a!, b!]);
    const cell = opened.locator('.mx-grid tbody tr td.mx-cell').nth(1);
    await cell.locator('.mx-reply > summary').click();
    await expect(cell.locator('.block.agent .cut-note').textContent()).resolves.toBe(`Cut: ${long.length.toLocaleString('en-US')} characters (first 1,000 characters on open)`);
    const href = await cell.locator('.block.agent a.full').getAttribute('href');
    expect(href).toMatch(/^page-files\/\d+\.txt$/);
  }, 60_000);

  it('shows a suite of 250 cases 100 grid rows at a time, with no reply built', async () => {
    const cases: CaseResult[] = [];
    for (let i = 0; i < 250; i++) cases.push(...split(`q${String(i).padStart(3, '0')}`));
    const big = await openCases(cases);
    await expect(big.locator('.mx-grid tbody tr').count()).resolves.toBe(100);
    await expect(big.locator('.mx-reply pre').count()).resolves.toBe(0);
    await expect(big.locator('.mx-count').textContent()).resolves.toBe('100 of 250 rows shown');
    await big.locator('button.mx-more').click();
    await expect(big.locator('.mx-grid tbody tr').count()).resolves.toBe(200);
    await big.locator('button.mx-more').click();
    await expect(big.locator('.mx-grid tbody tr').count()).resolves.toBe(250);
    expect(await big.locator('button.mx-more').isHidden()).toBe(true);
  }, 60_000);

  it('shows no matrix section for a run without a matrix', async () => {
    // The grid's page above has one, so this page's lack of one is the run's, not the script's.
    await expect(page.locator('section.matrix').count()).resolves.toBe(1);
    const plain = other;
    await plain.goto(pathToFileURL((await runHostile()).path).href, { waitUntil: 'load' });
    await expect(plain.locator('details.case').count()).resolves.toBe(2);
    await expect(plain.locator('section.matrix').count()).resolves.toBe(0);
  }, 60_000);

  /** A grid cell's button: the case of that row (by id) on that column (0 alpha, 1 beta). */
  const cellButton = (on: Page, id: string, column: number) =>
    on
      .locator('.mx-grid tbody tr', { has: on.locator('.mx-case .key', { hasText: new RegExp(`^${id}$`) }) })
      .locator('td.mx-cell')
      .nth(column)
      .locator('button.mx-open');
  /** The case list's row of a case key. */
  const caseRow = (on: Page, key: string) => on.locator('details.case', { has: on.locator('summary .key', { hasText: key }) });
  /** Waits for the case list to open this case from the grid, and says whether its row is on screen and its summary focused. */
  async function opened(on: Page, key: string): Promise<{ onScreen: boolean; focused: boolean }> {
    const row = caseRow(on, key);
    await on
      .locator('details.case.revealed[open]', { has: on.locator('summary .key', { hasText: key }) })
      .first()
      .waitFor();
    await row.locator('.case-body').first().waitFor();
    return row.evaluate(
      (r: { getBoundingClientRect(): { top: number; bottom: number }; querySelector(s: string): unknown; ownerDocument: { activeElement: unknown; defaultView: { innerHeight: number } } }) => {
        const box = r.getBoundingClientRect();
        return { onScreen: box.top >= 0 && box.top < r.ownerDocument.defaultView.innerHeight, focused: r.ownerDocument.activeElement === r.querySelector('summary') };
      },
    );
  }
  const alpha = (id: string) => caseKey({ suite: 'grid', id, matrix: { target: 'alpha' } });
  const beta = (id: string) => caseKey({ suite: 'grid', id, matrix: { target: 'beta' } });

  it('names each cell button by its case and target, so a screen reader (and getByRole) can tell the cells apart', async () => {
    const named = page.getByRole('button', { name: 'case split, target beta: failed, 0/3 passed', exact: true });
    await expect(named.count()).resolves.toBe(1);
    await expect(named.evaluate((b, other) => b === other, await cellButton(page, 'split', 1).elementHandle())).resolves.toBe(true);
    await expect(page.getByRole('button', { name: 'case split, target alpha: passed, 3/3 passed', exact: true }).count()).resolves.toBe(1);
    // A case id holding markup stays text in the name, and makes no element.
    const [a, b] = split('<b>x</b>');
    const hostile = await openCases([a!, b!]);
    await expect(hostile.getByRole('button', { name: 'case <b>x</b>, target beta: failed, 0/3 passed', exact: true }).count()).resolves.toBe(1);
    await expect(hostile.locator('b').count()).resolves.toBe(0);
  }, 60_000);

  it("opens a cell's case (that target's variant) in the case list, scrolled into view", async () => {
    await expect(caseRow(page, beta('split')).getAttribute('open')).resolves.toBeNull();
    await cellButton(page, 'split', 1).click();
    await expect(opened(page, beta('split'))).resolves.toEqual({ onScreen: true, focused: true });
    // The other target's variant of the same case stays closed.
    await expect(caseRow(page, alpha('split')).getAttribute('open')).resolves.toBeNull();
  });

  it('keeps a filter that shows the case; clears one that hides it, so the case is shown among all', async () => {
    const filter = page.locator('.tools input[type=search]');
    await filter.fill('split');
    await page.locator('.tools .count', { hasText: '2 of 6 cases' }).first().waitFor();
    await cellButton(page, 'split', 0).click();
    await opened(page, alpha('split'));
    await expect(filter.inputValue()).resolves.toBe('split');

    await filter.fill('target=beta');
    await page.locator('.tools .count', { hasText: '3 of 6 cases' }).first().waitFor();
    await expect(caseRow(page, alpha('same')).count()).resolves.toBe(0);
    await cellButton(page, 'same', 0).click();
    await expect(opened(page, alpha('same'))).resolves.toEqual({ onScreen: true, focused: true });
    await expect(filter.inputValue()).resolves.toBe('');
    await expect(page.locator('.tools .count').textContent()).resolves.toBe('6 of 6 cases');
  });

  it('opens a case on a later page of the case list, adding pages up to it', async () => {
    const cases: CaseResult[] = [];
    for (let i = 0; i < 250; i++) cases.push(...split(`q${String(i).padStart(3, '0')}`));
    const big = await openCases(cases);
    // Failed cases first: the 250 beta variants, then alpha's, so q000 on alpha is the 251st row.
    await expect(big.locator('details.case').count()).resolves.toBe(200);
    await cellButton(big, 'q000', 0).click();
    await expect(opened(big, alpha('q000'))).resolves.toEqual({ onScreen: true, focused: true });
    await expect(big.locator('details.case').count()).resolves.toBe(400);
    await expect(big.locator('details.case > summary .key').nth(250).textContent()).resolves.toBe(alpha('q000'));
  }, 60_000);

  it('made no network request, its replies opened included', () => {
    expect(net.attempts()).toEqual([]);
  });
});
