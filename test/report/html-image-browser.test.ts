/**
 * An image input in the HTML report, in headless Chromium: the small image is shown as a thumbnail
 * (an <img> whose src is its data: URL, which the page's CSP allows), the large one by name and
 * sha256 digest with no <img>, and the page loads nothing and raises no error.
 */
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, expect, it } from 'vitest';
import { removeTempDirs } from '../support/cli.js';
import { describeInChromium, watchPage, sharedChromium, closePages } from '../support/chromium.js';
import { runInProcess } from '../support/run-in-process.js';
import { htmlReporter } from '../../src/report/html.js';
import { BIG_PNG, IMAGE_PNG, imageEvalFiles } from '../multimodal/image-fixtures.js';

describeInChromium('an image input in the HTML report', (executablePath) => {
  let browser: Browser | undefined;
  let page: Page | undefined;
  const dialogs: string[] = [];
  const errors: string[] = [];
  const requests: string[] = [];
  afterAll(async () => {
    await closePages(browser);
    removeTempDirs();
  });

  /** Runs the suite in process with the HTML reporter and opens its page; what the page raised and asked for, gathered. */
  const reportPage = async (name: string, run: Pick<Parameters<typeof runInProcess>[0], 'files' | 'config'>) => {
    let path = '';
    await runInProcess({
      ...run,
      reporters: (dir) => {
        path = join(dir, 'out', `${name}.html`);
        return [htmlReporter({ path, outputDir: join(dir, '.agent-evals'), version: 'test' })];
      },
    });
    browser ??= await sharedChromium(executablePath);
    // One page for every report of the file, each opened by a navigation (far cheaper than a fresh context); what it recorded is emptied first.
    if (!page) {
      page = await browser.newPage();
      watchPage(page, dialogs, errors);
      page.on('request', (r) => void (r.url().startsWith('file:') || r.url().startsWith('data:') ? undefined : requests.push(r.url())));
    }
    for (const recorded of [dialogs, errors, requests]) recorded.length = 0;
    await page.goto(pathToFileURL(path).href, { waitUntil: 'load' });
    return { page, dialogs, errors, requests };
  };

  /** Opens case `key` and its first trial; returns the trial once `built` (a selector in its body) is there. */
  const openTrial = async (page: Page, key: string, built: string) => {
    const row = page.locator('details.case', { has: page.locator('summary .key', { hasText: key }) });
    await row.locator('> summary').click();
    const trial = row.locator('details.trial').first();
    await trial.locator('> summary').click();
    // The trial's body is built on its toggle event, which fires after the click resolves: wait for it.
    await trial.locator(built).first().waitFor();
    return trial;
  };

  /** In page order, each text block's label and each thumbnail of the trial's body. */
  const blocksAndThumbnails = (trial: Locator) =>
    trial
      .locator('.trial-body')
      .evaluate((body) =>
        [...body.querySelectorAll('.block > .label, img.thumbnail')].map((e) => (e.tagName === 'IMG' ? `img ${(e.getAttribute('src') ?? '').slice(0, 21)}` : (e.textContent ?? '').split(' (')[0])),
      );

  it('shows the small image as a data: thumbnail and the large one by name and digest only', async () => {
    const { page, dialogs, errors, requests } = await reportPage('vision', {
      files: imageEvalFiles('fn', '{ type: contains, value: total }'),
      config: { targets: { fn: () => 'The total is $12.50.' } },
    });
    const trial = await openTrial(page, 'vision/receipt', '.input-part');

    const images = page.locator('img');
    await expect(images.count()).resolves.toBe(1);
    await expect(images.first().getAttribute('src')).resolves.toBe(`data:image/png;base64,${IMAGE_PNG.toString('base64')}`);
    // The browser decoded it: a real 1x1 image, not a broken one.
    await expect(images.first().evaluate((img: { naturalWidth: number }) => img.naturalWidth)).resolves.toBe(1);
    const captions = await trial.locator('.input-part figcaption').allTextContents();
    const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
    expect(captions).toEqual([
      `Image receipt.png (image/png, ${IMAGE_PNG.length} bytes) sha256 ${sha(IMAGE_PNG)}`,
      `Image big.png (image/png, ${BIG_PNG.length.toLocaleString('en-US')} bytes) sha256 ${sha(BIG_PNG)}`,
    ]);
    expect(dialogs).toEqual([]);
    expect(errors).toEqual([]);
    expect(requests).toEqual([]);
  }, 60_000);

  it('shows an image sent in a later turn under that turn, and one in a history message under that message', async () => {
    const yaml = `suite: talk
target: fn
cases:
  - id: turns
    turns:
      - input: Hello.
      - input: [{ type: text, text: Here is the receipt. }, { type: image, path: receipt.png }]
    assert: [{ type: contains, value: total }]
  - id: history
    messages:
      - { role: user, content: [{ type: text, text: My receipt. }, { type: image, path: receipt.png }] }
      - { role: assistant, content: Got it. }
      - { role: user, content: The total? }
    assert: [{ type: contains, value: total }]
`;
    const { page, errors } = await reportPage('talk', { files: { 'evals/talk.eval.yaml': yaml, 'evals/receipt.png': IMAGE_PNG }, config: { targets: { fn: () => 'The total is $12.50.' } } });
    const opened = async (key: string) => blocksAndThumbnails(await openTrial(page, key, 'img.thumbnail'));
    const url = 'img data:image/png;base64';
    const turns = await opened('talk/turns');
    // Turn 1's message is the input; turn 2's image comes under turn 2's message, before its reply.
    expect(turns.slice(0, 5)).toEqual(['User', 'Agent', 'User', url, 'Agent']);
    const history = await opened('talk/history');
    expect(history.slice(0, 4)).toEqual(['User', url, 'Assistant', 'User']);
    expect(errors).toEqual([]);
  }, 60_000);

  it("shows an image a check's t.send() sent under that turn's message", async () => {
    const evalTs = `export default {
  suite: 'sent',
  target: 'fn',
  cases: [{ id: 'receipt', input: 'Hello.', check: async (t) => { await t.send([{ type: 'text', text: 'Here is the receipt.' }, { type: 'image', path: 'receipt.png' }]); t.contains('total'); } }],
};
`;
    const { page, errors } = await reportPage('sent', {
      files: { 'evals/sent.eval.ts': evalTs, 'evals/receipt.png': IMAGE_PNG },
      config: { evals: ['evals/*.eval.ts'], targets: { fn: () => 'The total is $12.50.' } },
    });
    const shown = await blocksAndThumbnails(await openTrial(page, 'sent/receipt', 'img.thumbnail'));
    expect(shown.slice(0, 5)).toEqual(['User', 'Agent', 'User', 'img data:image/png;base64', 'Agent']);
    expect(errors).toEqual([]);
  }, 60_000);
});
