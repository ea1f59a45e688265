/**
 * The HTML report's "Before and after" section in headless Chromium: a run compared with a baseline
 * (test/support/before-after-page.ts) shows, per moved case, the baseline's and this run's replies with
 * the changed words marked, the tool-sequence edit and the assertions side by side; a hostile reply
 * stays text in the diff; a gone baseline file is said and this run's side still shown; a judge-changed
 * case says its agent is not blamed; a tools-changed case names its tools. Skipped, with a message, where no Chromium is installed.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { watchNetwork, type NetworkWatch } from '../support/no-network.js';
import { removeTempDirs } from '../support/cli.js';
import { describeInChromium, watchPage, sharedChromium, closePages } from '../support/chromium.js';
import { BASE_CAPITAL, BASE_EVIL, HEAD_CAPITAL, HEAD_EVIL, comparisonOf, runComparedPage, type ComparedPage } from '../support/before-after-page.js';
import { writeHtmlReport } from '../../src/report/html-page.js';
import { FIELD_LIMIT } from '../../src/report/html-cut.js';
import { readBaselineView } from '../../src/report/baseline-view.js';
import { caseKey } from '../../src/core/matrix.js';
import type { Comparison, Results } from '../../src/core/results-schema.js';

/** The little of a DOM element these tests read (the test build has no DOM types). */
interface Node {
  textContent: string | null;
  open?: boolean;
}

/** The page of the head run's results as `agent-evals report` writes it, with the comparison and baseline file given. */
async function pageOf(run: ComparedPage, name: string, comparison: Comparison, baselineFile: string): Promise<string> {
  const { cases, ...head } = run.head.results;
  const path = join(run.head.dir, 'out', name);
  const baseline = await readBaselineView(baselineFile, comparison, head.run.trace, run.head.dir);
  await writeHtmlReport(
    path,
    { ...head, comparison },
    cases.map((c) => ({ json: JSON.stringify(c), key: caseKey(c) })),
    FIELD_LIMIT,
    { baseline },
  );
  return path;
}

/** Opens the section's row of a moved case. */
async function openMoved(page: Page, key: string): Promise<Locator> {
  const row = page.locator('.before-after details.ba-case', { has: page.locator('summary .key', { hasText: key }) });
  if (!(await row.evaluate((d: Node) => d.open === true))) await row.locator('> summary').click();
  // The case's pairs are built on the toggle event, after the click resolves: read nothing before they are there.
  await row.locator('.ba-pair').first().waitFor();
  return row;
}

const texts = (l: Locator) => l.allTextContents();

describeInChromium('the report\u2019s Before and after section in headless Chromium', (executablePath) => {
  let browser: Browser | undefined;
  let run: ComparedPage;
  let page: Page;
  const dialogs: string[] = [];
  const nets: NetworkWatch[] = [];
  const errors: string[] = [];

  const watched = async (): Promise<Page> => {
    const p = await browser!.newPage();
    watchPage(p, dialogs, errors);
    nets.push(await watchNetwork(p));
    return p;
  };
  /** Every report but the main one opens in turn in one more page: a navigation costs far less than a fresh context. */
  let other: Page | undefined;
  const open = async (path: string): Promise<Page> => {
    other ??= await watched();
    await other.goto(pathToFileURL(path).href, { waitUntil: 'load' });
    return other;
  };

  beforeAll(async () => {
    run = await runComparedPage();
    browser = await sharedChromium(executablePath);
    page = await watched();
    await page.goto(pathToFileURL(run.path).href, { waitUntil: 'load' });
  }, 60_000);

  afterAll(async () => {
    await closePages(browser);
    removeTempDirs();
  });

  it('lists the moved cases, regressions first, under "Before and after"', async () => {
    expect(comparisonOf(run.head).cases.map((c) => [c.key, c.kind])).toEqual([
      ['ba/capital', 'regressed'],
      ['ba/evil', 'improved'],
    ]);
    await expect(page.locator('.before-after h2').textContent()).resolves.toBe('Before and after');
    expect(await texts(page.locator('.before-after details.ba-case > summary .key'))).toEqual(['ba/capital', 'ba/evil']);
  });

  it('shows a regressed case\u2019s two replies side by side with the changed words marked', async () => {
    const row = await openMoved(page, 'ba/capital');
    const pair = row.locator('.ba-pair').first();
    await expect(pair.locator('h3').textContent()).resolves.toBe('Baseline trial 1 (passed, score 1.000) \u2192 This run trial 1 (failed, score 0.000)');
    const before = pair.locator('.ba-replies .ba-side.before pre');
    const after = pair.locator('.ba-replies .ba-side.after pre');
    await expect(before.textContent()).resolves.toBe(BASE_CAPITAL);
    await expect(after.textContent()).resolves.toBe(HEAD_CAPITAL);
    // The baseline's lost words on its side, this run's new words on its own: exactly the two that changed.
    expect(await texts(before.locator('del.ba-del'))).toEqual(['Paris', 'large']);
    expect(await texts(after.locator('ins.ba-ins'))).toEqual(['Lyon', 'small']);
    expect(await before.locator('ins').count()).toBe(0);
    expect(await after.locator('del').count()).toBe(0);
  });

  it('shows the tool-sequence edit: a reordered call and an inserted one', async () => {
    const pair = (await openMoved(page, 'ba/capital')).locator('.ba-pair').first();
    await expect(pair.locator('.ba-tool-edit > .label').textContent()).resolves.toBe('Tool calls: 1 inserted, 0 dropped, 1 reordered');
    expect(await texts(pair.locator('.ba-tool'))).toEqual(['\u21c4 search', 'fetch', '\u21c4 search', '+ verify']);
    expect(await texts(pair.locator('.ba-tool.inserted'))).toEqual(['+ verify']);
  });

  it('shows each assertion\u2019s verdict and message, the baseline\u2019s beside this run\u2019s', async () => {
    const pair = (await openMoved(page, 'ba/capital')).locator('.ba-pair').first();
    const sides = pair.locator('.ba-assertion').first();
    await expect(sides.locator('.ba-side.before pre').textContent()).resolves.toMatch(/^passed, score 1\.000/);
    await expect(sides.locator('.ba-side.after pre').textContent()).resolves.toMatch(/^failed, score 0\.000/);
  });

  it('keeps a hostile reply as text in the diff: no element made of it, no script run', async () => {
    const pair = (await openMoved(page, 'ba/evil')).locator('.ba-pair').first();
    // An improvement: the baseline's miss beside this run's pass.
    await expect(pair.locator('h3').textContent()).resolves.toBe('Baseline trial 1 (failed, score 0.000) \u2192 This run trial 1 (passed, score 1.000)');
    const before = pair.locator('.ba-replies .ba-side.before pre');
    await expect(before.textContent()).resolves.toBe(BASE_EVIL);
    await expect(pair.locator('.ba-replies .ba-side.after pre').textContent()).resolves.toBe(HEAD_EVIL);
    expect((await texts(before.locator('del.ba-del'))).join('')).toContain('<img src=x onerror=alert(1)><script>alert(4)</script>');
    expect(await page.locator('.before-after img, .before-after script').count()).toBe(0);
    expect(dialogs).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('says so when the baseline file is gone, and shows this run\u2019s side', async () => {
    const gone = await open(await pageOf(run, 'gone.html', comparisonOf(run.head), join(run.head.dir, 'gone.json')));
    await expect(gone.locator('.before-after .ba-missing').first().textContent()).resolves.toBe("The baseline's replies are not on this page: no file at gone.json. Only this run's side is shown.");
    const pair = (await openMoved(gone, 'ba/capital')).locator('.ba-pair').first();
    await expect(pair.locator('.ba-side.after pre').first().textContent()).resolves.toBe(HEAD_CAPITAL);
    expect(await pair.locator('.ba-side.before').count()).toBe(0);
    expect(await pair.locator('ins, del').count()).toBe(0);
    expect(errors).toEqual([]);
  });

  it('diffs a cut reply on the characters the page keeps, linking its whole text', async () => {
    const long = BASE_CAPITAL + ' More.'.repeat(FIELD_LIMIT / 6 + 1);
    const doc = JSON.parse(readFileSync(run.baseFile, 'utf8')) as Results;
    doc.cases.find((c) => c.id === 'capital')!.trials[0]!.reply = long;
    const file = join(run.head.dir, 'long.json');
    writeFileSync(file, JSON.stringify(doc));
    const p = await open(await pageOf(run, 'long.html', comparisonOf(run.head), file));
    const pair = (await openMoved(p, 'ba/capital')).locator('.ba-pair').first();
    expect(await texts(pair.locator('.ba-side.before del.ba-del'))).toContain('Paris');
    await expect(pair.locator('> .ba-note').first().textContent()).resolves.toMatch(/^Cut: /);
    await expect(pair.locator('> a.full').getAttribute('href')).resolves.toBe('long-files/0.txt');
    expect(readFileSync(join(run.head.dir, 'out', 'long-files', '0.txt'), 'utf8')).toBe(long);
    expect(errors).toEqual([]);
  });

  it('marks a judge-changed case as such and says its agent is not blamed', async () => {
    const cmp = comparisonOf(run.head);
    const judged: Comparison = {
      ...cmp,
      counts: { improved: 1, 'judge-changed': 1 },
      cases: [cmp.cases[1]!, { ...cmp.cases[0]!, kind: 'judge-changed', reason: 'judge openai:judge-a \u2192 openai:judge-b', judgeChanges: ['judge openai:judge-a \u2192 openai:judge-b'] }],
    };
    const p = await open(await pageOf(run, 'judged.html', judged, run.baseFile));
    expect(await texts(p.locator('.before-after details.ba-case > summary .change'))).toEqual(['improved', 'judge changed']);
    const row = await openMoved(p, 'ba/capital');
    await expect(row.locator('.ba-note.judge-changed').textContent()).resolves.toContain('(judge openai:judge-a \u2192 openai:judge-b)');
    await expect(row.locator('.ba-note.judge-changed').textContent()).resolves.toContain('The agent is not blamed');
    // Its replies are still shown side by side, as they ran.
    await expect(row.locator('.ba-pair .ba-replies .ba-side.before pre').first().textContent()).resolves.toBe(BASE_CAPITAL);
  });

  it('states the classification rule; a case regressed despite a judge change names its assertions; a re-judge says what it spent', async () => {
    const cmp = comparisonOf(run.head);
    const judge = ['judge openai:judge-a \u2192 openai:judge-b'];
    const broke: Comparison = {
      ...cmp,
      rejudge: { judges: ['openai:judge-b'], lower: 0, higher: 0, usage: { calls: 4, inputTokens: 900, outputTokens: 100, cachedInputTokens: 0, reasoningTokens: 0, costUsd: 0.0031 } },
      cases: [
        {
          ...cmp.cases[0]!,
          judgeChanges: judge,
          failedAssertions: [{ name: 'contains "Paris"', kind: 'contains', judged: false, base: { failed: 0, run: 3 }, head: { failed: 3, run: 3 } }],
        },
        cmp.cases[1]!,
      ],
    };
    const p = await open(await pageOf(run, 'broke.html', broke, run.baseFile));
    await expect(p.locator('.before-after .ba-legend').textContent()).resolves.toContain(
      'an assertion no judge graded (a deterministic check, gate or soft) that fails more often than in the baseline makes its case regressed, whatever happened to its judges',
    );
    await expect(p.locator('.before-after > .ba-note', { hasText: '--rejudge' }).textContent()).resolves.toContain('Re-judging it spent (judges): 4 calls, 900 in / 100 out tokens, $0.0031.');
    const row = await openMoved(p, 'ba/capital');
    await expect(row.locator('.ba-failed-assertions').textContent()).resolves.toBe(
      'Regressed by contains "Paris" (failed 3/3, baseline 0/3, no judge graded it). The judge also changed (judge openai:judge-a \u2192 openai:judge-b), which does not excuse it: the case is counted.',
    );
  });

  it('marks a tools-changed case as such, naming the tools; a case regressed with other tools says they are no excuse', async () => {
    const cmp = comparisonOf(run.head);
    const tools = ['tool orders_lookup changed'];
    const tooled: Comparison = {
      ...cmp,
      counts: { regressed: 1, 'tools-changed': 1 },
      cases: [
        { ...cmp.cases[0]!, toolChanges: tools, failedAssertions: [{ name: 'contains "Paris"', kind: 'contains', judged: false, base: { failed: 0, run: 3 }, head: { failed: 3, run: 3 } }] },
        { ...cmp.cases[1]!, kind: 'tools-changed', reason: tools[0], toolChanges: tools },
      ],
    };
    const p = await open(await pageOf(run, 'tooled.html', tooled, run.baseFile));
    expect(await texts(p.locator('.before-after details.ba-case > summary .change'))).toEqual(['regressed', 'tools changed']);
    await expect(p.locator('.before-after .ba-legend').textContent()).resolves.toContain('"tools changed" (never counted) is a case whose model was offered other tool definitions');
    const row = await openMoved(p, 'ba/evil');
    await expect(row.locator('.ba-note.tools-changed').textContent()).resolves.toContain('Tools changed (tool orders_lookup changed): the model was offered other tool definitions');
    const broke = await openMoved(p, 'ba/capital');
    await expect(broke.locator('.ba-failed-assertions').textContent()).resolves.toContain('The tools also changed (tool orders_lookup changed), which does not excuse it either.');
    expect(errors).toEqual([]);
  });

  it('made no network request on any page it opened', () => {
    expect(nets.length).toBeGreaterThan(0);
    expect(nets.flatMap((n) => n.attempts())).toEqual([]);
  });
});
