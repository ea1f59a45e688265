/**
 * `--judge-batch` against the fake OpenAI Batch API, in-process: the same verdicts as live judging,
 * one batch for the run instead of a call per judgment (more trials than the concurrency, so no
 * flush per window and no deadlock), the judge priced at the batch rate, the budget checked before
 * the batch is sent, cached answers kept out of it, and an interrupt cancelling it.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createJudgeService } from '../../src/judges/create-judge-service.js';
import { removeTempDirs, stripAnsi } from '../support/cli.js';
import { terminalReporter } from '../../src/report/terminal.js';
import { promptJudge } from '../../src/index.js';
import { startFakeOpenAI, type FakeOpenAI } from '../support/fake-openai.js';
import { startFakeAnthropic } from '../support/fake-anthropic.js';
import { runInProcess, type InProcessOptions } from '../support/run-in-process.js';
import type { Results } from '../../src/core/results-schema.js';

const env = { OPENAI_API_KEY: 'sk-test-batch-0123456789' };
const fakes: FakeOpenAI[] = [];
afterEach(async () => {
  await Promise.all(fakes.splice(0).map((f) => f.close()));
  removeTempDirs();
});

/**
 * The standard run: 8 cases × 5 trials, five times the concurrency (8), so a batch per window or a
 * deadlock would show; the target's reply names its case and trial, so every judgment differs.
 */
const CASES = 8;
const REPEAT = 5;
const TRIALS = CASES * REPEAT;
const CONCURRENCY = 8;

function evals(cases: number, repeat: number): string {
  const list = Array.from({ length: cases }, (_, n) => `  - { id: c${n}, input: "${n}", assert: [{ type: judge, criteria: the reply answers the question, severity: gate }] }`).join('\n');
  return `suite: batch\ntarget: agent\nrepeat: ${repeat}\ncases:\n${list}\n`;
}

/** The judge scores by the reply it is shown: low for every third answer, so verdicts differ by trial. */
async function judgeServer(pollsInProgress = 2): Promise<FakeOpenAI> {
  const fake = await startFakeOpenAI({
    batch: { pollsInProgress },
    script: (body) => {
      const n = Number(/answer (\d+)/.exec(String(body.messages.at(-1).content))?.[1]);
      return { json: { score: n % 3 === 0 ? 0.2 : 0.9, reason: `answer ${n}`, evidence: [] }, usage: { input: 400, output: 20 } };
    },
  });
  fakes.push(fake);
  return fake;
}

let trialCounter = 0;
function run(fake: FakeOpenAI, extra: Partial<InProcessOptions> & { flags?: InProcessOptions['flags'] } = {}) {
  return runInProcess({
    files: { 'batch.eval.yaml': evals(CASES, REPEAT) },
    config: {
      // Each trial's reply is its own: `answer <k>` with k counting every target call of the run.
      targets: { agent: () => `answer ${trialCounter++}` },
      judge: { provider: 'openai', model: 'gpt-4.1-mini', baseURL: fake.url },
      concurrency: CONCURRENCY,
      earlyStop: false,
    },
    judges: (settings, deps) => createJudgeService({ settings: settings.judging, ...deps, env }),
    ...extra,
    flags: { cache: false, ...extra.flags },
  });
}

/** Two judged trials whose batch polls answer 500 `failing` times (the SDK retries none: maxRetries 0); polling waits on no clock. */
async function withFailingPolls(failing: number) {
  const fake = await startFakeOpenAI({ script: () => ({ json: { score: 1, reason: 'ok', evidence: [] } }), batch: { failingPolls: failing } });
  fakes.push(fake);
  const r = await run(fake, {
    files: { 'batch.eval.yaml': evals(2, 1) },
    config: { targets: { agent: () => 'answer 1' }, judge: { provider: 'openai', model: 'gpt-4.1-mini', baseURL: fake.url, maxRetries: 0 }, concurrency: 2 },
    flags: { judgeBatch: true },
    batchPolling: { sleep: async () => {} },
  });
  return { fake, r };
}

const chatCalls = (fake: FakeOpenAI) => fake.requests.filter((r) => r.path === '/v1/chat/completions').length;
const verdicts = (r: Results) => r.cases.flatMap((c) => c.trials.map((t) => `${c.id}#${t.index}:${t.verdict}:${t.reply}`)).sort();
const judgeResults = (r: Results) => r.cases.flatMap((c) => c.trials.flatMap((t) => t.assertions.filter((a) => a.kind === 'judge')));

describe('--judge-batch (OpenAI)', () => {
  it('40 trials: the same verdicts as live judging, one batch instead of 40 calls, at the batch rate', async () => {
    trialCounter = 0;
    const liveFake = await judgeServer();
    const live = await run(liveFake);
    trialCounter = 0;
    const batchFake = await judgeServer();
    const batched = await run(batchFake, { flags: { judgeBatch: true } });

    expect(live.results.summary.trials.run).toBe(TRIALS);
    expect(chatCalls(liveFake)).toBe(TRIALS);
    expect(liveFake.batches.creates).toEqual([]);
    // One batch holding all the judgments, whatever the concurrency (8); no live judge call.
    expect(batchFake.batches.creates).toHaveLength(1);
    expect(batchFake.batches.creates[0]!.lines).toBe(TRIALS);
    expect(chatCalls(batchFake)).toBe(0);

    // Same verdict for every trial (passes and failures both present, so this compares something).
    expect(verdicts(batched.results)).toEqual(verdicts(live.results));
    expect(batched.results.summary.trials.passed).toBeGreaterThan(0);
    expect(batched.results.summary.trials.passed).toBeLessThan(TRIALS);
    expect(batched.exitCode).toBe(live.exitCode);

    // The judge cost is half the live one, and each judged result says it went through the batch.
    const liveCost = live.results.summary.usage.judge.costUsd!;
    expect(liveCost).toBeGreaterThan(0);
    expect(batched.results.summary.usage.judge.costUsd).toBeCloseTo(liveCost / 2, 12);
    expect(judgeResults(batched.results).every((a) => a.judge?.batch === true)).toBe(true);
    expect(judgeResults(live.results).some((a) => a.judge?.batch !== undefined)).toBe(false);
    // Progress: submitted, polled, ended.
    expect(batched.progress[0]).toBe(`judge batch batch_fake1 (openai:gpt-4.1-mini): ${TRIALS} requests submitted`);
    expect(batched.progress.at(-1)).toBe(`judge batch batch_fake1: ${TRIALS}/${TRIALS} done, ended`);
  });

  it('Anthropic: 40 trials give the same verdicts through one Message Batch as live, at the batch rate', async () => {
    const script = (body: { messages: unknown }) => {
      const n = Number(/answer (\d+)/.exec(JSON.stringify(body.messages))?.[1]);
      return { json: { score: n % 3 === 0 ? 0.2 : 0.9, reason: `answer ${n}`, evidence: [] }, usage: { input: 400, output: 20 } };
    };
    const both = async (judgeBatch: boolean) => {
      const fake = await startFakeAnthropic({ script });
      try {
        trialCounter = 0;
        const r = await runInProcess({
          files: { 'batch.eval.yaml': evals(CASES, REPEAT) },
          config: { targets: { agent: () => `answer ${trialCounter++}` }, judge: { provider: 'anthropic', model: 'claude-haiku-4-5', baseURL: fake.url }, concurrency: CONCURRENCY, earlyStop: false },
          judges: (settings, deps) => createJudgeService({ settings: settings.judging, ...deps, env: { ANTHROPIC_API_KEY: 'sk-ant-test-0123456789' } }),
          flags: { cache: false, judgeBatch },
        });
        return { r, created: fake.batches.created.map((b) => b.requests.length), live: fake.requests.filter((q) => q.path === '/v1/messages').length };
      } finally {
        await fake.close();
      }
    };
    const live = await both(false);
    const batched = await both(true);
    expect(live).toMatchObject({ created: [], live: TRIALS });
    expect(batched).toMatchObject({ created: [TRIALS], live: 0 });
    expect(verdicts(batched.r.results)).toEqual(verdicts(live.r.results));
    expect(batched.r.results.summary.trials.passed).toBeLessThan(TRIALS);
    expect(batched.r.results.summary.usage.judge.costUsd).toBeCloseTo(live.r.results.summary.usage.judge.costUsd! / 2, 12);
  });

  it('pairwise asks both orders in the same batch', async () => {
    const fake = await startFakeOpenAI({ script: () => ({ json: { winner: 'A', reason: 'first', evidence: [] } }) });
    fakes.push(fake);
    const yaml = `suite: pair\ntarget: agent\nrepeat: 3\ncases:\n  - id: p\n    input: hi\n    assert:\n      - { type: pairwise, comparedTo: the other answer, criteria: which helps more }\n`;
    trialCounter = 0;
    const r = await run(fake, { files: { 'pair.eval.yaml': yaml }, flags: { judgeBatch: true } });
    expect(fake.batches.creates.map((b) => b.lines)).toEqual([6]);
    // The judge always picks the first: a verdict that flips with the order, read from the one batch.
    const pairs = r.results.cases.flatMap((c) => c.trials.flatMap((t) => t.assertions.filter((a) => a.kind === 'pairwise')));
    expect(pairs.map((a) => [a.positionInconsistent, a.judge?.batch])).toEqual([
      [true, true],
      [true, true],
      [true, true],
    ]);
  });

  it('--max-cost: a batch whose estimate exceeds what is left is not sent, and the run stops on its budget', async () => {
    trialCounter = 0;
    const fake = await judgeServer();
    const r = await run(fake, { flags: { judgeBatch: true, maxCost: 0.001 } });
    expect(fake.batches.creates).toEqual([]);
    expect(fake.count).toBe(0);
    expect(r.exitCode).toBe(1);
    expect(r.results.summary.failures.some((f) => f.startsWith('cost budget of $0.001 would be exceeded: the judge batch was not sent'))).toBe(true);
    expect(judgeResults(r.results).every((a) => a.status === 'error' && a.message.includes('not sent'))).toBe(true);
  });

  it("--max-cost counts each target's spend as its judges start, so the budget stops new trials before any batch", async () => {
    const fake = await judgeServer();
    const r = await run(fake, {
      files: { 'batch.eval.yaml': evals(10, 1) },
      config: {
        // $0.01 a trial: 25,000 input tokens of gpt-4.1-mini at $0.40 per 1M.
        targets: { agent: (input: string) => ({ reply: `answer ${input}`, model: 'openai:gpt-4.1-mini', usage: { inputTokens: 25_000, outputTokens: 0 } }) },
        judge: { provider: 'openai', model: 'gpt-4.1-mini', baseURL: fake.url },
        concurrency: 1,
      },
      flags: { judgeBatch: true, maxCost: 0.035 },
    });
    // Every trial waits on the batch, yet the fourth trial's target spend stops the run from starting a fifth.
    expect(r.results.summary.trials.run).toBe(4);
    expect(r.results.summary.trials.notRun).toBe(6);
    expect(fake.batches.creates).toEqual([]);
    expect(r.results.summary.failures.some((f) => f.startsWith('cost budget of $0.035 spent'))).toBe(true);
    expect(r.exitCode).toBe(1);
  });

  it('a cached answer never goes into the batch', async () => {
    trialCounter = 0;
    const first = await judgeServer();
    const one = await run(first, { flags: { judgeBatch: true, cache: true } });
    expect(first.batches.creates[0]!.lines).toBe(TRIALS);
    trialCounter = 0;
    const before = first.count;
    // Same judge (the endpoint is part of the cache key), same project folder and its cache.
    const again = await run(first, { dir: one.dir, files: {}, flags: { judgeBatch: true, cache: true } });
    expect(first.count).toBe(before);
    expect(first.batches.creates).toHaveLength(1);
    expect(verdicts(again.results)).toEqual(verdicts(one.results));
    expect(judgeResults(again.results).every((a) => a.judge?.cached === true && a.judge.batch === undefined)).toBe(true);
  });

  it('an interrupt while the batch is pending cancels it at the provider and marks the trials interrupted', async () => {
    trialCounter = 0;
    const fake = await judgeServer(1_000);
    const interrupt = new AbortController();
    const r = await run(fake, {
      flags: { judgeBatch: true },
      interrupt: interrupt.signal,
      // The first wait between polls is where Ctrl-C comes; the wait ends with it.
      batchPolling: {
        sleep: (_ms, signal) =>
          new Promise((resolve) => {
            signal.addEventListener('abort', () => resolve(), { once: true });
            interrupt.abort();
          }),
      },
    });
    expect(fake.batches.creates).toHaveLength(1);
    expect(fake.batches.cancels).toEqual([fake.batches.creates[0]!.id]);
    expect(r.exitCode).toBe(130);
    expect(r.results.run.interrupted).toBe(true);
    const trials = r.results.cases.flatMap((c) => c.trials);
    expect(trials).toHaveLength(TRIALS);
    expect(trials.every((t) => t.verdict === 'interrupted' && t.interrupted === true)).toBe(true);
    expect(r.progress).toContain('judge batch batch_fake1: cancelled');
  });

  it('after an interrupt no batch is sent: the trials that reached their judges are interrupted, the rest not run', async () => {
    const fake = await judgeServer();
    const interrupt = new AbortController();
    const r = await runInProcess({
      files: { 'batch.eval.yaml': evals(10, 1) },
      config: {
        // Ctrl-C comes during the first target call.
        targets: { agent: (input: string) => (interrupt.abort(), `answer ${input}`) },
        judge: { provider: 'openai', model: 'gpt-4.1-mini', baseURL: fake.url },
        concurrency: 2,
      },
      judges: (settings, deps) => createJudgeService({ settings: settings.judging, ...deps, env }),
      flags: { judgeBatch: true, cache: false },
      interrupt: interrupt.signal,
    });
    expect(fake.count).toBe(0);
    expect(r.exitCode).toBe(130);
    expect(r.results.run.interrupted).toBe(true);
    const trials = r.results.cases.flatMap((c) => c.trials);
    expect(trials.length).toBeGreaterThan(0);
    expect(trials.length).toBeLessThan(10);
    expect(trials.every((t) => t.verdict === 'interrupted')).toBe(true);
    expect(r.results.summary.trials.notRun).toBe(10 - trials.length);
  });

  it('an OpenAI batch whose output file is larger than the cap on one reply: every verdict is read', async () => {
    // The judge's cap on one reply set to 1 MB (maxResponseBytes; 16 MB by default) and a 50 KB reason a
    // judgment: 40 judgments make an output file past 2 MB, each line under the cap.
    const fake = await startFakeOpenAI({
      script: (body) => {
        const n = Number(/answer (\d+)/.exec(String(body.messages.at(-1).content))?.[1]);
        return { json: { score: n % 3 === 0 ? 0.2 : 0.9, reason: `answer ${n} ${'r'.repeat(50_000)}`, evidence: [] } };
      },
    });
    fakes.push(fake);
    trialCounter = 0;
    const r = await run(fake, {
      config: {
        targets: { agent: () => `answer ${trialCounter++}` },
        judge: { provider: 'openai', model: 'gpt-4.1-mini', baseURL: fake.url, maxResponseBytes: 1_000_000 },
        concurrency: CONCURRENCY,
        earlyStop: false,
      },
      flags: { judgeBatch: true },
      batchPolling: { sleep: async () => {} },
    });
    const judged = judgeResults(r.results);
    expect(judged).toHaveLength(TRIALS);
    expect(judged.every((a) => a.status !== 'error')).toBe(true);
    expect(r.results.summary.trials.judgeErrors).toBeUndefined();
    // Verdicts differ by trial: every third fails, as the judge scored it.
    expect(r.results.summary.trials.passed).toBe(TRIALS - Math.ceil(TRIALS / 3));
  });

  it('a batch in a status the runner does not know fails its judgments within the documented bound (10 min of polling)', async () => {
    const fake = await startFakeOpenAI({ script: () => ({ json: { score: 1, reason: 'ok', evidence: [] } }), batch: { unknownStatus: 'queued_for_review' } });
    fakes.push(fake);
    const waits: number[] = [];
    const r = await run(fake, {
      files: { 'batch.eval.yaml': evals(2, 1) },
      flags: { judgeBatch: true },
      batchPolling: { sleep: async (ms) => void waits.push(ms) },
    });
    const judged = judgeResults(r.results);
    expect(judged).toHaveLength(2);
    expect(judged.every((a) => a.status === 'error' && /status 'queued_for_review', which this runner does not know, for \d+ s of polling \(the bound is 10 min\)/.test(a.message))).toBe(true);
    // Bounded: the polling time slept ends at the first wait that passes 10 minutes (the first, validating, poll does not count).
    const total = waits.reduce((a, b) => a + b, 0);
    expect(total - waits[0]!).toBeGreaterThanOrEqual(600_000);
    expect(total - waits[0]! - waits.at(-1)!).toBeLessThan(600_000);
    expect(r.exitCode).toBe(1);
  });

  it('polls failing past their retries leave the batch at the provider, uncancelled, its id in the results', async () => {
    const { fake, r } = await withFailingPolls(1_000);
    const id = fake.batches.creates[0]!.id;
    expect(fake.batches.failedPolls).toBeGreaterThan(1);
    expect(fake.batches.cancels).toEqual([]);
    // Each request is kept with what a later collect (`rejudge --batch`) matches its judgment by.
    const request = { customId: expect.stringMatching(/^judge-\d+$/), digest: expect.stringMatching(/^[0-9a-f]{32}$/), schema: expect.any(String) };
    expect(r.results.summary.uncollectedBatches).toEqual([
      { id, spec: 'openai:gpt-4.1-mini', reason: expect.stringMatching(/^its status could not be read for \d+ s of polling: .*500/), requests: [request, request] },
    ]);
    const [a, b] = r.results.summary.uncollectedBatches![0]!.requests!;
    expect(a!.digest).not.toBe(b!.digest);
    // Never a pass meanwhile: the judgments are errors and the run fails.
    expect(r.results.summary.trials.passed).toBe(0);
    expect(r.exitCode).toBe(1);
    expect(r.results.summary.warnings.some((w) => w.startsWith(`judge batch ${id} (openai:gpt-4.1-mini) was left at the provider uncollected`))).toBe(true);
    expect(judgeResults(r.results).every((a) => a.status === 'error' && a.message.includes('the batch id is kept in the results') && /\(request judge-\d+\)/.test(a.message))).toBe(true);
  });

  it('a poll that fails once is retried and the batch still read', async () => {
    const { fake, r } = await withFailingPolls(1);
    expect(fake.batches.failedPolls).toBe(1);
    expect(r.results.summary.uncollectedBatches).toBeUndefined();
    expect(r.results.summary.trials.passed).toBe(2);
  });

  it('a custom_id answered twice in the output file is refused, naming it; the other answers are taken', async () => {
    const fake = await startFakeOpenAI({ script: () => ({ json: { score: 1, reason: 'ok', evidence: [] } }), batch: { duplicateFirstOutput: true } });
    fakes.push(fake);
    const r = await run(fake, { files: { 'batch.eval.yaml': evals(3, 1) }, flags: { judgeBatch: true }, batchPolling: { sleep: async () => {} } });
    const judged = judgeResults(r.results);
    const refused = judged.filter((a) => a.status === 'error');
    expect(refused).toHaveLength(1);
    expect(refused[0]!.status === 'error' && refused[0]!.message).toMatch(/custom_id judge-\d+ appears more than once in the batch output/);
    expect(judged.filter((a) => a.status !== 'error')).toHaveLength(2);
  });

  it('the verbose terminal marks a batched judgment', async () => {
    const fake = await judgeServer();
    let out = '';
    await run(fake, {
      files: { 'batch.eval.yaml': evals(1, 1) },
      flags: { judgeBatch: true },
      reporters: () => [{ name: 'terminal', ...terminalReporter({ out: { write: (t: string) => (out += t) }, live: false, verbose: true }) }],
    });
    expect(stripAnsi(out)).toMatch(/judge openai:gpt-4\.1-mini · .* · batch/);
  });

  it('a judge that is not a single inference (promptJudge) stays live beside a batched one in the same trials', async () => {
    const fake = await judgeServer();
    let liveCalls = 0;
    const live = promptJudge(() => (liveCalls++, '{"score": 0.95, "reason": "fine"}'));
    const list = Array.from(
      { length: 10 },
      (_, n) => `  - id: c${n}\n    input: "${n}"\n    assert:\n      - { type: judge, criteria: polite }\n      - { type: judge, criteria: answers, judge: batched }`,
    ).join('\n');
    trialCounter = 0;
    const r = await run(fake, {
      files: { 'mixed.eval.yaml': `suite: mixed\ntarget: agent\ncases:\n${list}\n` },
      config: {
        targets: { agent: () => `answer ${++trialCounter}` },
        judge: live,
        judges: { batched: { provider: 'openai', model: 'gpt-4.1-mini', baseURL: fake.url } },
        concurrency: 2,
      },
      flags: { judgeBatch: true },
    });
    expect(liveCalls).toBe(10);
    expect(fake.batches.creates.map((b) => b.lines)).toEqual([10]);
    const judged = judgeResults(r.results);
    expect(judged.filter((a) => a.judge?.batch === true)).toHaveLength(10);
    expect(judged).toHaveLength(20);
  });

  it('a judge read inside check() is asked live, and never waits on a batched twin holding the only slot', async () => {
    const fake = await judgeServer();
    // Concurrency 1: trial 0 queues judgment K in the batch; trial 1 reads the same K inside its check,
    // holding the only slot. Waiting there on trial 0's batched call would never let the batch go out.
    const evalTs = `let n = 0;
export default { suite: 'ts', target: 'agent', repeat: 4, cases: [{ id: 'read', input: 'hi', check: async (t) => {
  const h = t.judge().criteria('answers the question');
  if (n++ % 2 === 1) await h.result();
} }] };`;
    const r = await runInProcess({
      files: { 'evals/read.eval.ts': evalTs },
      config: { evals: ['evals/*.eval.ts'], targets: { agent: () => 'answer 1' }, judge: { provider: 'openai', model: 'gpt-4.1-mini', baseURL: fake.url }, concurrency: 1, earlyStop: false },
      judges: (settings, deps) => createJudgeService({ settings: settings.judging, ...deps, env }),
      flags: { judgeBatch: true },
    });
    expect(r.results.cases[0]!.trials.map((t) => t.verdict)).toEqual(['passed', 'passed', 'passed', 'passed']);
    // The early read went out live once (the later one came from the cache); the rest in one batch.
    expect(chatCalls(fake)).toBe(1);
    expect(fake.batches.creates).toEqual([expect.objectContaining({ lines: 1 })]);
  });
});
