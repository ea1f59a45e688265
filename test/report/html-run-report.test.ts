/**
 * The run report in headless Chromium (issue 27, item 1), on a real judged run judged wholly from the
 * judge cache (test/support/run-report-page.ts): regressions, then failures, are listed before passes, each with its
 * first failure reason on one line (whole in its title); the pass-rate bars start at the same x down
 * the page; a trial opens with its input and reference, then the conversation and the assertions; a
 * judge skipped because a gate failed says skipped, not "Score 0.000"; the judge's usage names its
 * cache; the charts show pass rate by suite and the trial scores; a scored trace (`agent-evals score`)
 * names its id, time and source; and no page makes a network request.
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { removeTempDirs, tempDir } from '../support/cli.js';
import { describeInChromium, watchPage, sharedChromium, closePages } from '../support/chromium.js';
import { runHostile } from '../support/html-page.js';
import { watchNetwork, type NetworkWatch } from '../support/no-network.js';
import { JUDGED_CASES, judgedCachedPage, oneRegression, writePage, type JudgedPage } from '../support/run-report-page.js';

/** The little of a DOM element these tests read (the test build has no DOM types). */
interface El {
  tagName: string;
  className: string;
  textContent: string | null;
  children: ArrayLike<El>;
  querySelector(selector: string): El | null;
}

const row = (page: Page, key: string): Locator => page.locator('details.case', { has: page.locator('summary .key', { hasText: key }) });

/** Opens a case and its first trial, each by a click on its summary. */
async function openTrial(page: Page, key: string): Promise<Locator> {
  const r = row(page, key);
  await r.locator('> summary').click();
  const trial = r.locator('details.trial').first();
  await trial.locator('> summary').click();
  return trial;
}

describeInChromium('the run report in headless Chromium', (executablePath) => {
  let browser: Browser | undefined;
  let page: Page;
  let judged: JudgedPage;
  let net: NetworkWatch;
  const errors: string[] = [];
  /**
   * The page every other page of this file is opened in, one after another (a navigation is far
   * cheaper than a fresh context, and a report keeps nothing a later page could read), with what it
   * raised and asked for: a test reads what was recorded after its own `goto`.
   */
  let other: Page;
  let otherNet: NetworkWatch;
  const otherDialogs: string[] = [];
  const otherErrors: string[] = [];

  beforeAll(async () => {
    judged = await judgedCachedPage();
    browser = await sharedChromium(executablePath);
    page = await browser.newPage();
    page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
    net = await watchNetwork(page);
    await page.goto(pathToFileURL(judged.path).href, { waitUntil: 'load' });
    other = await browser.newPage();
    watchPage(other, otherDialogs, otherErrors);
    otherNet = await watchNetwork(other);
  }, 120_000);

  afterAll(async () => {
    await closePages(browser);
    removeTempDirs();
  });

  it('lists failures before passes, each group in plan order', async () => {
    expect(judged.results.cases.map((c) => `${c.suite}/${c.id}`)).toEqual(JUDGED_CASES);
    expect(judged.results.cases.map((c) => c.verdict)).toEqual(['passed', 'failed', 'passed']);
    await expect(page.locator('details.case > summary .key').allTextContents()).resolves.toEqual(['gates/gate-fails', 'cache/alternating', 'gates/gate-passes']);
  });

  it('lists a regressed case first, before the failures, though it still passes', async () => {
    const side = { verdict: 'passed' as const, passed: 1, run: 1, score: 1 };
    const comparison = oneRegression('gates/gate-passes', side, { ...side, score: 0.9 }, 'score 1.00 → 0.90');
    const compared = other;
    await compared.goto(pathToFileURL(await writePage(join(tempDir(), 'compared.html'), { ...judged.results, comparison })).href, { waitUntil: 'load' });
    await expect(compared.locator('details.case > summary .key').allTextContents()).resolves.toEqual(['gates/gate-passes', 'gates/gate-fails', 'cache/alternating']);
    await expect(compared.locator('details.case').first().locator('> summary .change').textContent()).resolves.toBe('regressed');
  });

  it("shows a failed row's first failure reason on one line, whole in its title; a passing row has none", async () => {
    const failed = judged.results.cases.find((c) => c.id === 'gate-fails')!;
    const gate = failed.trials[0]!.assertions.find((a) => a.status === 'failed')!;
    const reason = row(page, 'gates/gate-fails').locator('> summary .reason');
    await expect(reason.textContent()).resolves.toBe(gate.message);
    expect(gate.message).toContain('refund');
    await expect(reason.getAttribute('title')).resolves.toBe(gate.message);
    // One line: its box is no taller than one line of its text.
    const box = await reason.evaluate((e: El & { getBoundingClientRect(): { height: number } }) => e.getBoundingClientRect().height);
    expect(box).toBeLessThan(24);
    await expect(row(page, 'cache/alternating').locator('> summary .reason').count()).resolves.toBe(0);
  });

  it('starts every pass-rate bar at the same x, though the keys before them differ in length', async () => {
    const xs = await page.locator('details.case > summary .bar').evaluateAll((bars: (El & { getBoundingClientRect(): { x: number } })[]) => bars.map((b) => b.getBoundingClientRect().x));
    expect(xs).toHaveLength(3);
    expect(new Set(xs).size).toBe(1);
    const keyWidths = await page
      .locator('details.case > summary .key')
      .evaluateAll((keys: (El & { getBoundingClientRect(): { width: number } })[]) => keys.map((k) => k.getBoundingClientRect().width));
    expect(new Set(keyWidths).size).toBeGreaterThan(1);
  });

  it('opens a trial with its input, then the conversation, then the assertions', async () => {
    const trial = await openTrial(page, 'gates/gate-fails');
    const parts = await trial
      .locator('.trial-body')
      .evaluate((body: El) => Array.from(body.children).map((c) => (c.tagName === 'H3' ? `# ${c.textContent}` : (c.querySelector('.label')?.textContent ?? c.className))));
    expect(parts.slice(0, 2)).toEqual(['# Input', 'User']);
    expect(parts.indexOf('# Conversation')).toBeGreaterThan(parts.indexOf('User'));
    expect(parts.indexOf('Reply')).toBeGreaterThan(parts.indexOf('# Conversation'));
    expect(parts.indexOf('# Assertions')).toBeGreaterThan(parts.indexOf('Reply'));
    await expect(trial.locator('.trial-body > .block.user pre').first().textContent()).resolves.toBe('where is my order?');
  });

  it('says "skipped" for the judge a failed gate skipped, not a score of 0', async () => {
    const trial = row(page, 'gates/gate-fails').locator('details.trial').first();
    const judge = trial.locator('.assertion.skipped');
    await expect(judge.count()).resolves.toBe(1);
    const text = (await judge.textContent())!;
    expect(text).toContain('Scoreskipped, not scored (a gate of its trial failed first)');
    expect(text).not.toMatch(/0\.000/);
  });

  it("shows a scored trace's id and time beside its key, and its source in the case's facts", async () => {
    const results = structuredClone(judged.results);
    results.cases.find((c) => c.id === 'gate-fails')!.scoredTrace = { id: '4bf92f35', startedAt: '2026-12-01T10:00:00Z', source: 'traces/prod.otlp.json#4bf92f35' };
    const scored = other;
    await scored.goto(pathToFileURL(await writePage(join(tempDir(), 'scored.html'), results)).href, { waitUntil: 'load' });
    const r = row(scored, 'gates/gate-fails');
    await expect(r.locator('> summary .change.trace').textContent()).resolves.toBe('trace 4bf92f35 \u00b7 2026-12-01T10:00:00Z');
    await r.locator('> summary').click();
    await expect(r.locator('.case-body').textContent()).resolves.toContain('4bf92f35, started 2026-12-01T10:00:00Z, read from traces/prod.otlp.json#4bf92f35');
    // A case of a run names no trace.
    await expect(row(scored, 'gates/gate-passes').locator('> summary .change.trace').count()).resolves.toBe(0);
  });

  it('says "not scored" for an assertion that erred, not a score of 0', async () => {
    const results = structuredClone(judged.results);
    const judge = results.cases.find((c) => c.id === 'gate-passes')!.trials[0]!.assertions.find((a) => a.kind === 'judge')!;
    Object.assign(judge, { status: 'error', score: 0, message: 'judge: judge call failed: 500' });
    const erred = other;
    await erred.goto(pathToFileURL(await writePage(join(tempDir(), 'erred.html'), results)).href, { waitUntil: 'load' });
    const trial = await openTrial(erred, 'gates/gate-passes');
    const text = (await trial.locator('.assertion.error').textContent())!;
    expect(text).toContain('Scorenot scored: the check erred');
    expect(text).not.toMatch(/0\.000/);
  });

  it('says the judge answered wholly from cache, not "0 calls, $0.0000"', async () => {
    const s = judged.results.summary;
    expect(s.usage.judge.calls).toBe(0);
    expect(s.counters.judgeCallsFromCache).toBe(2);
    expect(judged.judgeRequests).toBe(2);
    const facts = await page
      .locator('section.summary dl.facts')
      .first()
      .evaluate((dl: El) => {
        const out: Record<string, string> = {};
        const kids = Array.from(dl.children);
        for (let i = 0; i + 1 < kids.length; i += 2) out[kids[i]!.textContent ?? ''] = kids[i + 1]!.textContent ?? '';
        return out;
      });
    expect(facts['Judge usage']).toBe(`2 of 2 judgments from cache (${s.counters.judgeTokensSavedByCache.toLocaleString('en-US')} tokens not spent again); no judge call made`);
    expect(s.counters.judgeTokensSavedByCache).toBe(2 * 320);
  });

  it("draws the run's pass rate on its 95% interval", async () => {
    const rate = judged.results.summary.passRate!;
    const strip = page.locator('figure.pass-rate svg');
    const attr = (sel: string, name: string) => strip.locator(sel).evaluate((e: { getAttribute(n: string): string | null }, n: string) => Number(e.getAttribute(n)), name);
    const [x0, w] = [await attr('rect.chart-track', 'x'), await attr('rect.chart-track', 'width')];
    expect(await attr('rect.chart-band', 'x')).toBeCloseTo(x0 + w * rate.low, 0);
    expect(await attr('rect.chart-band', 'width')).toBeCloseTo(w * (rate.high - rate.low), 0);
    expect(await attr('circle.chart-point', 'cx')).toBeCloseTo(x0 + w * rate.rate, 0);
  });

  it('charts pass rate by suite, one bar each, and the trial scores', async () => {
    const suites = page.locator('figure.suites svg g.chart-row');
    await expect(suites.locator('text.chart-label').allTextContents()).resolves.toEqual(['cache', 'gates']);
    await expect(suites.locator('text.chart-note').allTextContents()).resolves.toEqual(['100.0% (1/1)', '50.0% (1/2)']);
    const widths = await suites.locator('rect.chart-value').evaluateAll((r: { getAttribute(n: string): string | null }[]) => r.map((x) => Number(x.getAttribute('width'))));
    expect(widths[1]).toBeCloseTo(widths[0]! / 2, 5);
    const counts = await page.locator('figure.scores svg text.chart-count').allTextContents();
    expect(counts.map(Number).reduce((a, b) => a + b, 0)).toBe(3);
  });

  /** Types q into the filter box and waits for the case list to show these keys (the filter's input event rebuilds it). */
  async function expectFiltered(on: Page, q: string, keys: string[], total = 3): Promise<void> {
    await on.locator('.tools input[type=search]').fill(q);
    await on
      .locator('.tools .count', { hasText: `${keys.length} of ${total} cases` })
      .first()
      .waitFor();
    await expect.poll(() => on.locator('details.case > summary .key').allTextContents()).toEqual(keys);
  }

  it('finds a case by a word of its first failure reason in the filter box', async () => {
    const reason = (await row(page, 'gates/gate-fails').locator('> summary .reason').textContent())!;
    expect(reason).toContain('refund');
    await expectFiltered(page, 'REFUND', ['gates/gate-fails']);
    await expectFiltered(page, '', ['gates/gate-fails', 'cache/alternating', 'gates/gate-passes']);
  });

  it('finds a case by its input, a message of its history or a turn, and by a reason past its cut line; markup in them stays text', async () => {
    const results = structuredClone(judged.results);
    const byId = (id: string) => results.cases.find((c) => c.id === id)!;
    const INPUT = '<img src=x onerror=alert(1)> Where is PARCEL 7?';
    byId('gate-passes').input = INPUT;
    const history = byId('alternating');
    delete history.input;
    history.messages = [
      { role: 'user', content: 'first question' },
      { role: 'assistant', content: 'an answer' },
      { role: 'user', content: 'what about the VOUCHER?' },
    ];
    // A reason longer than the row's line: the filter finds its last word, which the row cuts off. Its
    // start, shown on the row next to the filter as soon as the page loads, holds markup.
    const MARKUP_REASON = '<b class="made">not bold</b><svg class="made" onload=alert(2)></svg>';
    Object.assign(history.trials[0]!, { verdict: 'error', error: `upstream said: ${MARKUP_REASON} ${'x '.repeat(200)}QUOTA exhausted` });
    const turns = byId('gate-fails');
    delete turns.input;
    turns.turns = [{ input: 'hello' }, { input: 'cancel the SUBSCRIPTION please' }];
    const asked = other;
    const [dialogsBefore, errorsBefore] = [otherDialogs.length, otherErrors.length];
    await asked.goto(pathToFileURL(await writePage(join(tempDir(), 'asked.html'), results)).href, { waitUntil: 'load' });
    const reason = row(asked, 'cache/alternating').locator('> summary .reason');
    await expect(reason.textContent()).resolves.not.toContain('QUOTA');
    // The row's reason, shown at load, made no element of its markup and shows it as the very characters it holds.
    const made = asked.locator('img, b, .made');
    await expect(made.count()).resolves.toBe(0);
    await expect(reason.textContent()).resolves.toContain(`upstream said: ${MARKUP_REASON} x x`);
    await expectFiltered(asked, 'parcel 7', ['gates/gate-passes']);
    await expectFiltered(asked, 'voucher', ['cache/alternating']);
    await expectFiltered(asked, 'subscription', ['gates/gate-fails']);
    await expectFiltered(asked, 'quota exhausted', ['cache/alternating']);
    await expectFiltered(asked, 'onerror', ['gates/gate-passes']);
    // Markup typed into the filter is searched for as text: it finds the case whose input holds it.
    await expectFiltered(asked, '<IMG src=x onerror=alert(1)>', ['gates/gate-passes']);
    await expectFiltered(asked, '<b class="made">not bold</b>', ['cache/alternating']);
    // A query spans no two fields: the reason's end and the input's start are not one text.
    await expectFiltered(asked, 'exhausted first', []);
    // The found case's input, opened, is its markup as text.
    await expectFiltered(asked, 'parcel', ['gates/gate-passes']);
    const trial = await openTrial(asked, 'gates/gate-passes');
    await trial.locator('.block.user pre').waitFor();
    // No element was made of any of that markup, anywhere on the page, and nothing ran.
    await expect(made.count()).resolves.toBe(0);
    await expect(trial.locator('.block.user pre').textContent()).resolves.toBe(INPUT);
    expect(otherDialogs.slice(dialogsBefore)).toEqual([]);
    expect(otherErrors.slice(errorsBefore)).toEqual([]);
  });

  it('made no network request and no page error', () => {
    expect(net.attempts()).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('makes no network request on the hostile run page either, opened down to a trial', async () => {
    const hostile = other;
    const { path } = await runHostile();
    const before = otherNet.attempts().length;
    await hostile.goto(pathToFileURL(path).href, { waitUntil: 'load' });
    await openTrial(hostile, 'hostile/evil');
    await hostile.evaluate(() => new Promise((r) => setTimeout(r, 100)));
    expect(otherNet.attempts().slice(before)).toEqual([]);
  });

  it('the network watch sees a request a page makes, and one its CSP refuses', async () => {
    // A blank document first: the report it showed last had a CSP of its own.
    const probe = other;
    await probe.goto('about:blank');
    let before = otherNet.attempts().length;
    await probe.setContent('<img src="http://127.0.0.1:9/x.png">', { waitUntil: 'load' });
    expect(otherNet.attempts().slice(before)).toEqual(['GET http://127.0.0.1:9/x.png']);
    const strict = other;
    before = otherNet.attempts().length;
    await strict.setContent(`<meta http-equiv="Content-Security-Policy" content="default-src 'none'"><img src="http://127.0.0.1:9/y.png">`, { waitUntil: 'load' });
    await strict.evaluate(() => new Promise((r) => setTimeout(r, 100)));
    const refused = otherNet.attempts().slice(before);
    expect(refused).toContainEqual(expect.stringContaining('csp-refused'));
  });
});
