/**
 * `agent-evals view` end to end: four real runs of a project (the CLI's `run`, in process) whose
 * function target calls a tool through `ctx.tool()` under the default `trace: safe`, then its `view` (in process too)
 * serves the output folder and headless Chromium (playwright-core) reads it: the run list holds every
 * run folder, a trial shows the tool's arguments and result in full (read from the run folder's raw
 * trials) while the run's results.json keeps only digests, a reply with markup stays text, a secret
 * from the environment used as a tool argument is on no page, two runs compare with the regression in
 * Before and after, the history draws one point per run, every request stays on the server's origin,
 * and a request without the token gets 403 and no data. Needs dist/ (`npm run build`).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeTempDirs } from '../support/cli.js';
import { runCliInProcess, startCliInProcess, type InProcessCli } from '../support/cli-in-process.js';
import { describeInChromium, watchPage, sharedChromium, closePages } from '../support/chromium.js';
import { HOSTILE_REPLY } from '../support/html-page.js';
import { writeProject } from '../support/temp-project.js';

/** The tool's argument and result: distinctive, so their presence and absence can be told. */
const ARG = 'ORD-VIEWER-5519';
const RESULT = 'SHIPPED-VIA-HERON-8830';
/** A secret by its name (`*_TOKEN`): the run redacts it wherever it lands, the raw trials included. */
const SECRET = 'tok-view-secret-7c1e9a2b44';

const CONFIG = `export default {
  evals: ['evals/*.eval.yaml'],
  targets: {
    async shop(input, ctx) {
      const found = await ctx.tool('lookup_order', { orderId: '${ARG}', region: 'eu-west', auth: process.env.ORDER_API_TOKEN }, async () => ({ status: '${RESULT}' }));
      if (process.env.SHOP_BROKEN) return 'Sorry, I cannot help.';
      return input.includes('markup') ? ${JSON.stringify(HOSTILE_REPLY)} + ' shipped' : 'Your order is ' + found.status + ': shipped';
    },
  },
};
`;

const EVAL = `suite: shop
target: shop
cases:
  - id: order-status
    input: Where is my order?
    assert: [{ type: contains, value: shipped }, { type: calledTool, tool: lookup_order, args: { region: eu-west } }]
  - id: markup
    input: Reply with markup
    assert: [{ type: contains, value: shipped }]
`;

const URL_LINE = /^(http:\/\/127\.0\.0\.1:(\d+)\/([A-Za-z0-9_-]+)\/)$/m;

describeInChromium('agent-evals view in headless Chromium', (executablePath) => {
  let browser: Browser | undefined;
  let dir = '';
  let sha = '';
  let cli: InProcessCli | undefined;
  let url = '';
  /** Run folder ids in the order the runs were made: whole, filtered, broken, one shard. */
  const ids: string[] = [];
  const errors: string[] = [];
  const dialogs: string[] = [];
  /** Every request a page made. */
  const requests: string[] = [];

  /** The one page every test navigates (a navigation costs far less than a fresh context; what it records is gathered for the whole file). */
  let viewPage: Page | undefined;
  async function open(path: string): Promise<Page> {
    if (viewPage) {
      await viewPage.goto(url + path, { waitUntil: 'load' });
      return viewPage;
    }
    const page = (viewPage = await browser!.newPage());
    watchPage(page, dialogs, errors);
    page.on('request', (r) => requests.push(r.url()));
    page.on('console', (m) => {
      if (/Content Security Policy/i.test(m.text())) errors.push(`csp: ${m.text()}`);
    });
    await page.goto(url + path, { waitUntil: 'load' });
    return page;
  }

  const run = async (args: string[], env: Record<string, string | undefined> = {}) => {
    const before = new Set(runFolders());
    const r = await runCliInProcess(['run', ...args], { cwd: dir, env: { ORDER_API_TOKEN: SECRET, ...env } });
    const made = runFolders().filter((id) => !before.has(id));
    expect(made, r.stdout + r.stderr).toHaveLength(1);
    ids.push(made[0]!);
    return r;
  };
  const runFolders = () => {
    const runs = join(dir, '.agent-evals', 'runs');
    return existsSync(runs) ? readdirSync(runs, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? [e.name] : [])) : [];
  };
  const folderFile = (id: string, file: string) => readFileSync(join(dir, '.agent-evals', 'runs', id, file), 'utf8');

  beforeAll(async () => {
    dir = writeProject({ 'evals.config.mjs': CONFIG, 'evals/shop.eval.yaml': EVAL });
    // A repository, so each run records the commit it ran at.
    const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], { cwd: dir, encoding: 'utf8' }).trim();
    git('init', '-q');
    git('add', '-A');
    git('commit', '-qm', 'project');
    sha = git('rev-parse', 'HEAD');
    expect((await run([])).code).toBe(0);
    expect((await run(['--filter', 'shop/order-status'])).code).toBe(0);
    expect((await run([], { SHOP_BROKEN: '1' })).code).toBe(1);
    expect((await run(['--shard', '2/2'])).code).toBe(0);
    // The shareable results keep digests: the argument is in no results document, only in the raw trials.
    for (const id of ids) expect(folderFile(id, 'results.json')).not.toContain(ARG);
    expect(folderFile(ids[0]!, 'raw-trials.jsonl')).toContain(ARG);
    expect(folderFile(ids[0]!, 'raw-trials.jsonl')).not.toContain(SECRET);
    // Launched first: a launch adds Playwright's own SIGINT handler, which must not be taken for the view's.
    browser = await sharedChromium(executablePath);
    cli = startCliInProcess(['view', '--no-open'], { cwd: dir, env: { ORDER_API_TOKEN: SECRET } });
    await cli.waitForStdout(URL_LINE);
    url = URL_LINE.exec(cli.stdout())![1]!;
  }, 180_000);

  afterAll(async () => {
    await closePages(browser);
    // A server a failed test left running: its Ctrl-C ends it.
    if (cli?.kill('SIGINT')) await cli.done.catch(() => {});
    removeTempDirs();
  });

  it('refuses every request without the token (403, no data)', async () => {
    const [, base, port, token] = /^(http:\/\/127\.0\.0\.1:(\d+))\/([^/]+)\/$/.exec(url)!;
    const wrong = token!.replace(/^./, (c) => (c === 'A' ? 'B' : 'A'));
    const refused = [
      await fetch(`${base}/`),
      await fetch(`${base}/run/${ids[0]}`),
      await fetch(`${base}/history`),
      await fetch(`${base}/${wrong}/`),
      await fetch(`${base}/${wrong}/run/${ids[0]}`),
      await fetch(`${base}/${token}`),
      // The right token under another host name (DNS rebinding) is refused too.
      await fetch(`http://localhost:${port}/${token}/`).catch(() => undefined),
    ];
    for (const res of refused.filter((r) => r !== undefined)) {
      expect(res.status, res.url).toBe(403);
      expect(await res.text()).toBe('forbidden\n');
    }
    // With the token: the list, and 404 for a run that is not a run folder (no path is read from the address).
    expect((await fetch(url)).status).toBe(200);
    expect((await fetch(`${url}run/..%2F..%2Fevals.config.mjs`)).status).toBe(404);
    expect((await fetch(`${url}run/nope`)).status).toBe(404);
  });

  it('lists every run folder, newest first, with its commit, pass rate, exit code and selection', async () => {
    const page = await open('');
    const rows = page.locator('tr.run');
    await rows.first().waitFor();
    // Read through locators: the page's CSP lets no test code be evaluated in it.
    const shown: (string | null)[] = [];
    for (let i = 0; i < (await rows.count()); i++) shown.push(await rows.nth(i).getAttribute('data-id'));
    expect(shown).toEqual([...ids].reverse());
    const cell = (id: string, cls: string) => page.locator(`tr.run[data-id="${id}"] td.${cls}`).textContent();
    await expect(cell(ids[0]!, 'commit')).resolves.toBe(sha.slice(0, 12));
    await expect(cell(ids[0]!, 'exit')).resolves.toBe('0 passed');
    await expect(cell(ids[2]!, 'exit')).resolves.toBe('1 failed');
    await expect(cell(ids[0]!, 'pass-rate')).resolves.toBe('100.0% (2/2)');
    await expect(cell(ids[2]!, 'pass-rate')).resolves.toBe('0.0% (0/2)');
    await expect(cell(ids[1]!, 'selection')).resolves.toBe('--filter shop/order-status');
    await expect(cell(ids[0]!, 'selection')).resolves.toBe('all');
    await expect(cell(ids[3]!, 'selection')).resolves.toBe('shard 2/2');
    await expect(cell(ids[0]!, 'trace')).resolves.toBe('safe');
  });

  it("shows a trial of a trace: safe run with the tool's arguments and result in full; markup in a reply stays text; no secret on the page", async () => {
    const page = await open('');
    await page.locator(`tr.run[data-id="${ids[0]}"] td.started a`).click();
    await page.waitForURL(`${url}run/${ids[0]}`);
    const openTrial = async (key: string) => {
      const row = page.locator('details.case', { has: page.locator('summary .key', { hasText: key }) });
      await row.locator('> summary').click();
      const trial = row.locator('details.trial').first();
      await trial.locator('> summary').click();
      await trial.locator('.trial-body').first().waitFor();
      return trial;
    };
    const trial = await openTrial('shop/order-status');
    const args = JSON.parse((await trial.locator('.tool .block.args pre').textContent())!) as Record<string, unknown>;
    // The secret the target passed is redacted in the raw trials: the page shows the marker, not the value.
    expect(args).toEqual({ orderId: ARG, region: 'eu-west', auth: '[redacted]' });
    expect(JSON.parse((await trial.locator('.tool .block.result pre').textContent())!)).toEqual({ status: RESULT });

    const hostile = await openTrial('shop/markup');
    await expect(hostile.locator('.block.agent pre').first().textContent()).resolves.toBe(`${HOSTILE_REPLY} shipped`);
    await expect(page.locator('img').count()).resolves.toBe(0);

    // Nowhere in what the server sent, nor in what the page built.
    const sent = await (await fetch(`${url}run/${ids[0]}`)).text();
    expect(sent).toContain(ARG);
    for (const text of [sent, await page.content()]) expect(text).not.toContain(SECRET);
  });

  it('compares two runs: the later run with the regression in Before and after, traces in full', async () => {
    const page = await open('');
    await page.locator(`tr.run[data-id="${ids[2]}"] td.vs a`).waitFor();
    // The broken run's "vs previous" is the filtered run; compare it with the whole run through the form.
    await page.selectOption('select[aria-label="Before"]', ids[0]!);
    await page.selectOption('select[aria-label="After"]', ids[2]!);
    await page.locator('.compare button').click();
    await page.waitForURL(`${url}compare/${ids[0]}/${ids[2]}`);
    const section = page.locator('section.before-after');
    await section.waitFor();
    await expect(section.textContent()).resolves.toMatch(/shop\/order-status/);
    await expect(section.textContent()).resolves.toMatch(/regressed/i);
    const sent = await (await fetch(`${url}compare/${ids[0]}/${ids[2]}`)).text();
    expect(sent).toContain(ARG);
    expect(sent).not.toContain(SECRET);
  });

  it('draws the history with one point per run', async () => {
    const page = await open('history');
    const points = page.locator('svg.pass-rate circle.point');
    await points.first().waitFor();
    await expect(points.count()).resolves.toBe(ids.length);
    await expect(page.locator('nav.view-nav a').first().getAttribute('href')).resolves.toBe('./');
  });

  describe('after the pages', () => {
    it('made requests to its own server only, ran no script from the runs and broke no CSP', () => {
      expect(requests.length).toBeGreaterThan(0);
      const origin = new URL(url).origin;
      expect(requests.filter((r) => new URL(r).origin !== origin)).toEqual([]);
      expect(dialogs).toEqual([]);
      expect(errors).toEqual([]);
    });

    it('Ctrl-C stops the server with exit 0; the address was printed once, and no secret', async () => {
      expect(cli!.kill('SIGINT')).toBe(true);
      const done = await cli!.done;
      expect(done.code, done.stderr).toBe(0);
      expect(done.stderr).toMatch(/Viewing 4 runs of \.agent-evals/);
      expect(done.stderr).toMatch(/View stopped/);
      expect(done.stdout.match(/http:\/\//g)).toHaveLength(1);
      expect(done.stdout + done.stderr).not.toContain(SECRET);
    });
  });
});
