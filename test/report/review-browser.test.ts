/**
 * `agent-evals review` end to end: the built CLI's `main` (in-process: the command is the subject, not the
 * binary) serves a 5-trial results file on 127.0.0.1, headless
 * Chromium (playwright-core) labels the trials with real key presses, Ctrl-C stops the server, a
 * second session resumes at the first unlabelled trial, and `agent-evals calibrate` reads the labels
 * file it wrote, against a fake judge scripted by fixtures (matched as `calibration/<id>`), with the
 * κ worked out by hand below. Requests without the token are refused with 403 and no data.
 * Needs dist/ (`npm run build`), as the other tests of the built CLI do.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { removeTempDirs, tempDir } from '../support/cli.js';
import { runCliInProcess, startCliInProcess, type InProcessCli } from '../support/cli-in-process.js';
import { describeInChromium, watchPage, sharedChromium, closePages } from '../support/chromium.js';
import { runInProcess } from '../support/run-in-process.js';
import { HOSTILE_REPLY } from '../support/html-page.js';
import { CalibrationSchema } from '../../src/judges/calibration-schema.js';

const EVALS = `suite: review
target: agent
cases:
${[1, 2, 3, 4, 5].map((n) => `  - { id: c${n}, input: "question ${n}", reference: "answer ${n}", assert: [{ type: contains, value: answer }] }`).join('\n')}
`;

/**
 * The human's labels, keyed as the page is driven (verdict key, score digit), and the fake judge's
 * scores (0..1) for the same trials. At the default threshold 0.7 the judge passes c1, c2, c4.
 */
const PLAN = [
  { id: 'review/c1#1', keys: ['p', '9'], verdict: 'pass', score: 9, judge: 0.9 },
  { id: 'review/c2#1', keys: ['f', '3'], verdict: 'fail', score: 3, judge: 0.8 },
  { id: 'review/c3#1', keys: ['f', '2'], verdict: 'fail', score: 2, judge: 0.2 },
  { id: 'review/c4#1', keys: ['p', '8'], verdict: 'pass', score: 8, judge: 0.9 },
  { id: 'review/c5#1', keys: ['p', '6'], verdict: 'pass', score: 6, judge: 0.3 },
];

const URL_LINE = /^(http:\/\/127\.0\.0\.1:(\d+)\/([A-Za-z0-9_-]+)\/)$/m;

describeInChromium('agent-evals review in headless Chromium', (executablePath) => {
  let browser: Browser | undefined;
  let dir = '';
  let labels = '';
  const sessions: InProcessCli[] = [];
  const errors: string[] = [];
  /** Every request a review page made, with its server's origin. */
  const requests: { url: string; origin: string }[] = [];

  /** Starts `review`, waits for its one stdout line (the tokened address) and opens it in a new page. */
  async function open(): Promise<{ cli: InProcessCli; url: string; page: Page }> {
    const cli = startCliInProcess(['review', 'results.json'], { cwd: dir });
    sessions.push(cli);
    await cli.waitForStdout(URL_LINE);
    const url = URL_LINE.exec(cli.stdout())![1]!;
    const page = await browser!.newPage();
    // A dialog is as wrong as an error here: both land in `errors`.
    watchPage(page, errors, errors);
    page.on('request', (r) => requests.push({ url: r.url(), origin: new URL(url).origin }));
    await page.goto(url, { waitUntil: 'load' });
    return { cli, url, page };
  }

  /** Presses each key in Chromium, then waits until the page has had every post answered. */
  async function press(page: Page, keys: string[]): Promise<void> {
    for (const key of keys) await page.keyboard.press(key);
    // A locator, not a page function: the page's CSP lets no test code be evaluated in it.
    await page.locator('#status[data-pending="0"]').waitFor({ timeout: 30_000 });
    await expect(page.locator('#status').textContent()).resolves.toBe('All labels saved');
  }

  const current = (page: Page) => page.locator('.trial-head .key').textContent();
  const rows = () =>
    readFileSync(labels, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Record<string, unknown>);

  /** Ctrl-C (to the listener the command added): the server stops and the command ends with 0 (the labels are saved as they come). */
  async function stop(cli: InProcessCli): Promise<void> {
    expect(cli.kill('SIGINT')).toBe(true);
    const done = await cli.done;
    expect(done.code, done.stderr).toBe(0);
    expect(done.stderr).toMatch(/Review stopped: \d of 5 trials labelled in labels\.jsonl/);
    // The address, token and all, was printed once.
    expect(done.stdout.match(/http:\/\//g)).toHaveLength(1);
  }

  beforeAll(async () => {
    // The last trial's reply would run script if the page put it in as markup.
    const agent = (input: string) => (input === 'question 5' ? `${HOSTILE_REPLY} answer` : `answer to ${input}`);
    const run = await runInProcess({ files: { 'review.eval.yaml': EVALS }, config: { targets: { agent } } });
    dir = run.dir;
    labels = join(dir, 'labels.jsonl');
    expect(run.results.cases.map((c) => c.trials.length)).toEqual([1, 1, 1, 1, 1]);
    browser = await sharedChromium(executablePath);
  }, 60_000);

  afterAll(async () => {
    await closePages(browser);
    // A session a failed test left serving: its Ctrl-C ends it.
    for (const s of sessions) s.kill('SIGINT');
    await Promise.all(sessions.map((s) => s.done.catch(() => {})));
    removeTempDirs();
  });

  it('refuses every request without the token (403, no data) and writes nothing for it', async () => {
    const { cli, url } = await open();
    const [, base, port, token] = /^(http:\/\/127\.0\.0\.1:(\d+))\/([^/]+)\/$/.exec(url)!;
    const wrong = token!.replace(/^./, (c) => (c === 'A' ? 'B' : 'A'));
    const refused = [
      await fetch(`${base}/`),
      await fetch(`${base}/label`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ id: PLAN[0]!.id, humanVerdict: 'pass', humanScore: null }) }),
      await fetch(`${base}/${wrong}/`),
      await fetch(`${base}/${wrong}/label`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ id: PLAN[0]!.id, humanVerdict: 'pass', humanScore: null }) }),
      await fetch(`${base}/${token}`),
      // The right token under another host name (DNS rebinding) is refused too.
      await fetch(`http://localhost:${port}/${token}/`).catch(() => undefined),
    ];
    for (const res of refused.filter((r) => r !== undefined)) {
      expect(res.status, res.url).toBe(403);
      const body = await res.text();
      expect(body).toBe('forbidden\n');
    }
    // With the token: the page, and refusals of what is not a label of a known trial.
    const ok = await fetch(url);
    expect(ok.status).toBe(200);
    expect(ok.headers.get('content-security-policy')).toMatch(/connect-src 'self'/);
    expect(await ok.text()).toContain('question 1');
    const post = (body: string, type = 'application/json') => fetch(`${url}label`, { method: 'POST', headers: { 'Content-Type': type }, body });
    expect((await post(JSON.stringify({ id: 'review/nope#1', humanVerdict: 'pass', humanScore: null }))).status).toBe(400);
    expect((await post(JSON.stringify({ id: PLAN[0]!.id, humanVerdict: 'maybe', humanScore: null }))).status).toBe(400);
    expect((await post(JSON.stringify({ id: PLAN[0]!.id, humanVerdict: 'pass', humanScore: null }), 'text/plain')).status).toBe(415);
    expect((await post(JSON.stringify({ id: PLAN[0]!.id, humanVerdict: 'pass', humanScore: null, pad: 'x'.repeat(5000) }))).status).toBe(413);
    expect(existsSync(labels), 'a refused request wrote the labels file').toBe(false);
    await stop(cli);
  }, 120_000);

  it('labels three trials from the keyboard, saving each label as it goes; Ctrl-C stops the server', async () => {
    const { cli, page } = await open();
    await expect(page.locator('.progress').textContent()).resolves.toBe('Trial 1 of 5 · 0 labelled · saved to labels.jsonl');
    await expect(page.locator('.legend').textContent()).resolves.toContain('p pass');
    for (const step of PLAN.slice(0, 3)) {
      expect(await current(page)).toBe(`${step.id.replace('#', ' · trial ')}`);
      await press(page, step.keys);
      expect(rows().at(-1)).toMatchObject({ id: step.id, humanVerdict: step.verdict, humanScore: step.score });
      await press(page, ['j']);
    }
    // The reply and the question are in each row, as calibrate reads them.
    expect(rows()).toEqual(
      PLAN.slice(0, 3).map((p, n) => ({ id: p.id, input: `question ${n + 1}`, reference: `answer ${n + 1}`, output: `answer to question ${n + 1}`, humanVerdict: p.verdict, humanScore: p.score })),
    );
    await stop(cli);
  }, 120_000);

  it('a second session resumes at the first unlabelled trial, shows the earlier labels, and labels the rest', async () => {
    const { cli, page } = await open();
    await expect(page.locator('.progress').textContent()).resolves.toBe('Trial 4 of 5 · 3 labelled · saved to labels.jsonl');
    expect(await current(page)).toBe('review/c4 · trial 1');
    await page.keyboard.press('k');
    expect(await current(page)).toBe('review/c3 · trial 1');
    await expect(page.locator('#human').textContent()).resolves.toBe('you: fail, score 2');
    await page.keyboard.press('ArrowRight');
    for (const step of PLAN.slice(3)) {
      expect(await current(page)).toBe(`${step.id.replace('#', ' · trial ')}`);
      if (step.id === 'review/c5#1') {
        await expect(page.locator('.block.output pre').textContent()).resolves.toBe(`${HOSTILE_REPLY} answer`);
        await expect(page.locator('img').count()).resolves.toBe(0);
      }
      await press(page, [...step.keys, 'j']);
    }
    expect(rows().map((r) => [r.id, r.humanVerdict, r.humanScore])).toEqual(PLAN.map((p) => [p.id, p.verdict, p.score]));
    expect(errors).toEqual([]);
    await stop(cli);
  }, 120_000);

  it('calibrate reads the labels file; κ against the scripted fake judge is 1/6', async () => {
    const cal = tempDir('agent-evals-review-calibrate-');
    writeFileSync(join(cal, 'fake-judge.yaml'), PLAN.map((p) => `- case: "calibration/${p.id}"\n  score: ${p.judge}\n`).join(''));
    writeFileSync(join(cal, 'evals.config.mjs'), `export default { outputDir: 'out', judges: { scripted: { provider: 'fake', fixtures: 'fake-judge.yaml' } } };\n`);
    const out = join(cal, 'calibration.json');
    const res = await runCliInProcess(['calibrate', labels, '--judge', 'scripted', '--criteria', 'Answers the question.', '--scale', '10', '--no-cache', '--output', out], {
      cwd: cal,
      env: { EVALS_JUDGE_PROVIDER: undefined, EVALS_JUDGE_MODEL: undefined },
      timeoutMs: 60_000,
    });
    expect(res.code, `${res.stdout}\n${res.stderr}`).toBe(0);
    const report = CalibrationSchema.parse(JSON.parse(readFileSync(out, 'utf8')));
    expect([report.judge, report.rows, report.judged]).toEqual(['fake:fixtures', 5, 5]);
    // Judge (≥ 0.7 passes)  P P F P F against humans P F F P P: agree on c1, c3, c4, so p_o = 3/5.
    // Both pass 3 of 5: p_e = .6·.6 + .4·.4 = .52; κ = (.6 − .52) / (1 − .52) = .08 / .48 = 1/6.
    expect(report.verdicts?.accuracy).toBeCloseTo(0.6, 12);
    expect(report.verdicts?.kappa).toBeCloseTo(1 / 6, 12);
    // Scores ×10: judge 9 8 2 9 3, humans 9 3 2 8 6: |diffs| 0 5 0 1 3, MAE 9/5.
    expect(report.scores?.meanAbsoluteError).toBeCloseTo(1.8, 12);
  }, 120_000);

  it('made requests to its own server only', () => {
    expect(requests.length).toBeGreaterThan(0);
    expect(requests.filter((r) => new URL(r.url).origin !== r.origin)).toEqual([]);
  });
});
