/**
 * The HTML report in a real browser: Debian's Chromium, driven by playwright-core. The hostile run's
 * page must open with no dialog, no page error and no console error (a CSP violation is reported
 * there), list its cases, and drill down to the trial's tool call with the hostile text shown as text.
 * Every trial's conversation opens with what the user asked: the case's input, history or first turn.
 * Skipped, with a message, where no Chromium is installed; under CI a missing Chromium fails.
 */
import { pathToFileURL } from 'node:url';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { removeTempDirs } from '../support/cli.js';
import { describeInChromium, watchPage, sharedChromium, closePages } from '../support/chromium.js';
import { HOSTILE_INPUT, HOSTILE_REPLY, HOSTILE_RESULT, runAskedPage, runHostile } from '../support/html-page.js';

interface Item {
  label: string;
  text: string;
}

/** The little of a DOM element these tests read (the test build has no DOM types). */
interface Node {
  tagName: string;
  textContent: string | null;
  open?: boolean;
  children: ArrayLike<Node>;
  querySelector(selector: string): Node | null;
}

/** An opened trial's input and conversation, in order: each item's label and text, from the first heading to the assertions'. */
function conversation(trial: Locator): Promise<Item[]> {
  return trial.locator('.trial-body').evaluate((body: Node) => {
    const items: Item[] = [];
    let inside = false;
    for (const child of Array.from(body.children)) {
      if (child.tagName === 'H3') {
        inside = child.textContent === 'Input' || child.textContent === 'Conversation';
        continue;
      }
      if (inside) items.push({ label: child.querySelector('.label')?.textContent ?? '', text: child.querySelector('pre')?.textContent ?? '' });
    }
    return items;
  });
}

/** Opens a case of the page, then its first trial (each by a click on its summary, unless an earlier test left it open). */
async function openTrial(page: Page, key: string): Promise<Locator> {
  const open = async (details: Locator) => {
    if (!(await details.evaluate((d: Node) => d.open === true))) await details.locator('> summary').click();
  };
  const row = page.locator('details.case', { has: page.locator('summary .key', { hasText: key }) });
  await open(row);
  const trial = row.locator('details.trial').first();
  await open(trial);
  return trial;
}
describeInChromium('the HTML report in headless Chromium', (executablePath) => {
  let browser: Browser | undefined;
  let page: Page;
  let askedPath = '';
  const dialogs: string[] = [];
  const errors: string[] = [];

  beforeAll(async () => {
    const { path } = await runHostile();
    browser = await sharedChromium(executablePath);
    page = await browser.newPage();
    watchPage(page, dialogs, errors);
    await page.goto(pathToFileURL(path).href, { waitUntil: 'load' });
    askedPath = (await runAskedPage()).path;
  }, 60_000);

  afterAll(async () => {
    await closePages(browser);
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
  });

  it("opens the trial's conversation with the case's input, hostile markup shown as text, and shows the reference", async () => {
    const trial = await openTrial(page, 'hostile/evil');
    const items = await conversation(trial);
    expect(items[0]).toEqual({ label: 'User', text: HOSTILE_INPUT });
    expect(await trial.locator('.block.user pre').first().isVisible()).toBe(true);
    expect(items.map((i) => i.label)).toEqual(['User', 'Reference (expected answer)', 'Step 1', 'Tool call: lookup', 'Reply']);
    await expect(trial.locator('.block.reference pre').textContent()).resolves.toBe('<b>a safe answer</b>');
    // The input's and the reference's markup made no element.
    await expect(page.locator('i, b').count()).resolves.toBe(0);
  });

  it('ran no hostile markup: no dialog, no page or console error, no <img> and one page script', async () => {
    // Let anything the hostile text could have started (an image error handler) have its turn.
    await page.evaluate(() => new Promise((r) => setTimeout(r, 200)));
    expect(dialogs).toEqual([]);
    expect(errors).toEqual([]);
    await expect(page.locator('img').count()).resolves.toBe(0);
    await expect(page.locator('script').count()).resolves.toBe(2);
  });

  it("opens a history case's conversation with its messages, and a multi-turn trial with its first turn", async () => {
    // The same page, navigated (a navigation costs far less than a fresh context): the hostile page's checks above are done.
    const asked = page;
    await asked.goto(pathToFileURL(askedPath).href, { waitUntil: 'load' });
    const history = await conversation(await openTrial(asked, 'asked/history'));
    expect(history).toEqual([
      { label: 'User', text: 'first question' },
      { label: 'Assistant (history)', text: 'first answer' },
      { label: 'User', text: 'second question' },
      { label: 'Reply', text: 'ok: second question' },
    ]);
    const multi = await conversation(await openTrial(asked, 'asked/multi'));
    expect(multi[0]).toEqual({ label: 'User (turn 1)', text: 'turn one' });
    expect(multi.filter((i) => i.label.startsWith('User')).map((i) => i.text)).toEqual(['turn one', 'turn two']);
    expect(multi.map((i) => i.label.replace(/, .*\)$/, ')'))).toEqual(['User (turn 1)', 'Agent (turn 1)', 'User (turn 2)', 'Agent (turn 2)']);
    expect(errors).toEqual([]);
  });
});
