/**
 * `run --replay-tools <results.json>` through the built CLI (in-process), with a model-agent target on
 * a fake OpenAI server (the real SDK client): the agent looks an order up and issues a refund, and the
 * refund tool's implementation in the config appends to a marker file whenever it really runs. A
 * replay answers the recorded calls without running the tools; a changed argument is reported as a
 * divergence at its step and runs live (strict: the trial fails); under `trace: safe` the tape is the
 * run folder's, never the shareable results.
 */
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { REPO_ROOT, STACK_FRAME, removeTempDirs } from '../support/cli.js';
import { runCliInProcess } from '../support/cli-in-process.js';
import { writeProject } from '../support/temp-project.js';
import { startFakeOpenAI, type FakeOpenAI } from '../support/fake-openai.js';
import { ResultsSchema, type Results } from '../../src/core/results-schema.js';
import { rawTrialsPath } from '../../src/report/raw-trials.js';

afterAll(removeTempDirs);

let fake: FakeOpenAI | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

/** What the refund tool answers: tool data a `safe` run must keep out of every shareable artifact. */
const PRIVATE = 'acct-pin-4417-PRIVATE-TAPE';

const dist = (path: string) => JSON.stringify(pathToFileURL(join(REPO_ROOT, path)).href);
const config = `import { appendFileSync } from 'node:fs';
import { tool } from ${dist('dist/index.js')};
import { z } from ${dist('node_modules/zod/index.js')};

// Each real run of a tool leaves a line in the marker file: a replayed call leaves none.
const ran = (line) => appendFileSync(process.env.MARKER, line + '\\n');
const lookup = tool({
  name: 'orders_lookup',
  parameters: z.object({ orderId: z.string() }),
  execute: ({ orderId }) => (ran('lookup ' + orderId), { id: orderId, status: 'damaged' }),
});
const refund = tool({
  name: 'issue_refund',
  parameters: z.object({ orderId: z.string() }),
  execute: ({ orderId }) => (ran('refund ' + orderId), { refundId: 'RF-' + orderId, note: '${PRIVATE}' }),
});

export default {
  evals: ['evals/*.eval.yaml'],
  outputDir: '.out',
  trace: process.env.TRACE,
  targets: { support: { model: 'openai:gpt-4.1-mini', instructions: 'You handle refunds.', tools: [lookup, refund] } },
};
`;

const EVAL = `suite: shop
target: support
cases:
  - id: refund
    input: Please refund my damaged order A1050.
    assert:
      - type: toolOrder
        tools: [orders_lookup, issue_refund]
      - type: calledTool
        tool: orders_lookup
        args: { orderId: A1050 }
`;

/** The model: looks the order up, refunds `refundArg`, then answers; each step by the tool results it was sent. */
async function model(refundArg: { orderId: string }): Promise<FakeOpenAI> {
  fake = await startFakeOpenAI({
    script: (body: { messages: Array<{ role: string }> }) => {
      const answered = body.messages.filter((m) => m.role === 'tool').length;
      if (answered === 0) return { toolCalls: [{ name: 'orders_lookup', args: { orderId: 'A1050' } }], usage: { input: 50, output: 10 } };
      if (answered === 1) return { toolCalls: [{ name: 'issue_refund', args: refundArg }], usage: { input: 80, output: 10 } };
      return { text: 'Your refund is on its way.', usage: { input: 120, output: 8 } };
    },
  });
  return fake;
}

function project(): string {
  return writeProject({ 'evals.config.mjs': config, 'evals/shop.eval.yaml': EVAL });
}

async function run(dir: string, args: string[], trace: 'full' | 'safe' = 'full', env: Record<string, string> = {}) {
  rmSync(join(dir, 'marker.txt'), { force: true });
  const r = await runCliInProcess(['run', '--reporter', 'terminal', ...args], {
    cwd: dir,
    env: { OPENAI_API_KEY: 'sk-test-dummy-key-000000', OPENAI_BASE_URL: fake?.url, MARKER: join(dir, 'marker.txt'), TRACE: trace, ...env },
  });
  const marker = existsSync(join(dir, 'marker.txt')) ? readFileSync(join(dir, 'marker.txt'), 'utf8').trim().split('\n') : [];
  return { ...r, marker };
}

const readResults = (file: string): Results => ResultsSchema.parse(JSON.parse(readFileSync(file, 'utf8')));
const callsOf = (r: Results) => r.cases[0]!.trials[0]!.trace.steps!.flatMap((s) => s.toolCalls ?? []).map(({ durationMs: _d, ...call }) => call);

describe('run --replay-tools', () => {
  it('answers the recorded calls from the tape: no tool runs, the same trajectory passes', async () => {
    await model({ orderId: 'A1050' });
    const dir = project();
    const first = await run(dir, ['--json', 'first.json']);
    expect(first.code, first.stdout + first.stderr).toBe(0);
    expect(first.marker).toEqual(['lookup A1050', 'refund A1050']);

    const again = await run(dir, ['--json', 'again.json', '--replay-tools', 'first.json']);
    expect(again.code, again.stdout + again.stderr).toBe(0);
    // The tools did not run: no refund was issued the second time.
    expect(again.marker).toEqual([]);
    const recorded = readResults(join(dir, 'first.json'));
    const replayed = readResults(join(dir, 'again.json'));
    expect(replayed.cases[0]!.verdict).toBe('passed');
    expect(replayed.cases[0]!.trials[0]!.assertions.map((a) => [a.kind, a.status])).toEqual([
      ['toolOrder', 'passed'],
      ['calledTool', 'passed'],
    ]);
    expect(callsOf(replayed)).toEqual(callsOf(recorded));
    expect(replayed.cases[0]!.trials[0]!.toolTape).toEqual({ replayed: 2 });
    // The model still ran (3 calls each time) and was sent the recorded results.
    expect(fake!.count).toBe(6);
    expect(JSON.stringify(fake!.bodies[5].messages)).toContain('RF-A1050');
    expect(again.stdout).not.toMatch(/diverged/);
    expect(again.stdout).toContain('Tool tape 2 calls replayed from the tape; no trial left it');
  });

  it('a changed argument diverges at its step and runs live; strict fails the trial without running it', async () => {
    const refundArg = { orderId: 'A1050' };
    await model(refundArg);
    const dir = project();
    expect((await run(dir, ['--json', 'first.json'])).code).toBe(0);

    // The model now asks for the refund of another order.
    refundArg.orderId = 'A1050-B';
    const loose = await run(dir, ['--json', 'loose.json', '--reporter', 'junit=junit.xml', '--reporter', 'html=report.html', '--reporter', 'github=summary.md', '--replay-tools', 'first.json']);
    expect(loose.code, loose.stdout + loose.stderr).toBe(0);
    // The lookup came from the tape, the refund ran live.
    expect(loose.marker).toEqual(['refund A1050-B']);
    const trial = readResults(join(dir, 'loose.json')).cases[0]!.trials[0]!;
    expect(trial.toolTape).toEqual({
      replayed: 1,
      diverged: { step: 2, tool: 'issue_refund', reason: 'arguments', expected: 'issue_refund', message: 'diverged from the tape at step 2: issue_refund called with other arguments than recorded' },
    });
    const line = 'diverged from the tape at step 2: issue_refund called with other arguments than recorded';
    expect(loose.stdout).toContain(line);
    expect(loose.stdout).toContain('Tool tape 1 call replayed from the tape; 1 of 1 trial left it (from there on their calls ran live)');
    // The step summary escapes Markdown (`issue\_refund`); the page holds it in its data, shown as the case's "Tool tape".
    const shown = { 'junit.xml': line, 'report.html': line, 'summary.md': line.replaceAll('_', '\\_') };
    for (const [file, text] of Object.entries(shown)) expect({ file, has: readFileSync(join(dir, file), 'utf8').includes(text) }).toEqual({ file, has: true });
    expect(loose.stdout).toMatch(/^::notice .*title=shop\/refund left the tool tape::diverged from the tape at step 2/m);

    const strict = await run(dir, ['--json', 'strict.json', '--replay-tools-strict', 'first.json']);
    expect(strict.code, strict.stdout + strict.stderr).toBe(1);
    expect(strict.marker).toEqual([]);
    const failed = readResults(join(dir, 'strict.json')).cases[0]!.trials[0]!;
    expect(failed.verdict).toBe('failed');
    expect(failed.error).toMatch(/^target support: diverged from the tape at step 2: issue_refund called with other arguments than recorded/);
    expect(failed.toolTape).toMatchObject({ replayed: 1, diverged: { step: 2 } });
  });

  it('refuses both flags at once and a file that is not there (exit 2, naming it)', async () => {
    await model({ orderId: 'A1050' });
    const dir = project();
    const missing = await run(dir, ['--replay-tools', 'nope.json']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/nope\.json: --replay-tools: no such results file/);
    const both = await run(dir, ['--replay-tools', 'a.json', '--replay-tools-strict', 'a.json']);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('--replay-tools and --replay-tools-strict do not go together');
    expect(fake!.count).toBe(0);
    expect(missing.stderr + both.stderr).not.toMatch(STACK_FRAME);
  });
});

describe('run --replay-tools under trace: safe', () => {
  it('the tape is in the run folder, never in results.json; a pruned folder is exit 2 naming the file', async () => {
    await model({ orderId: 'A1050' });
    const dir = project();
    const first = await run(dir, ['--json', 'first.json', '--reporter', 'junit=junit.xml'], 'safe');
    expect(first.code, first.stdout + first.stderr).toBe(0);
    const recorded = readResults(join(dir, 'first.json'));
    expect(recorded.run.trace).toBe('safe');
    for (const file of ['first.json', 'junit.xml']) expect({ file, has: readFileSync(join(dir, file), 'utf8').includes(PRIVATE) }).toEqual({ file, has: false });
    expect(first.stdout).not.toContain(PRIVATE);
    const raw = rawTrialsPath(join(dir, '.out'), recorded.run.id);
    expect(readFileSync(raw, 'utf8')).toContain(PRIVATE);

    const again = await run(dir, ['--json', 'again.json', '--replay-tools', 'first.json'], 'safe');
    expect(again.code, again.stdout + again.stderr).toBe(0);
    expect(again.marker).toEqual([]);
    expect(readResults(join(dir, 'again.json')).cases[0]!.trials[0]!.toolTape).toEqual({ replayed: 2 });
    // The model was sent the recorded result in clear (from the run folder), not its digest.
    expect(JSON.stringify(fake!.bodies[5].messages)).toContain(PRIVATE);
    expect(readFileSync(join(dir, 'again.json'), 'utf8')).not.toContain(PRIVATE);

    rmSync(join(dir, '.out', 'runs', recorded.run.id), { recursive: true });
    const pruned = await run(dir, ['--replay-tools', 'first.json'], 'safe');
    expect(pruned.code).toBe(2);
    expect(pruned.stderr).toMatch(/first\.json: --replay-tools: the tool tape of run \S+ is gone/);
    expect(pruned.stderr).not.toMatch(STACK_FRAME);
    expect(pruned.marker).toEqual([]);
    expect(fake!.count).toBe(6);
  });
});

describe('run --replay-tools with a damaged run folder', () => {
  it('an empty or garbled raw-trials.jsonl is exit 2 naming it, before any tool or model call', async () => {
    await model({ orderId: 'A1050' });
    const dir = project();
    const first = await run(dir, ['--json', 'first.json'], 'safe');
    expect(first.code, first.stdout + first.stderr).toBe(0);
    expect(first.marker).toEqual(['lookup A1050', 'refund A1050']);
    const recorded = readResults(join(dir, 'first.json'));
    const raw = rawTrialsPath(join(dir, '.out'), recorded.run.id);
    const calls = fake!.count;
    for (const text of ['', 'garbage\n{"key": 1}\n', JSON.stringify({ key: 'shop/other', trials: [] }) + '\n']) {
      writeFileSync(raw, text);
      const replay = await run(dir, ['--replay-tools', 'first.json'], 'safe');
      expect(replay.code, replay.stderr).toBe(2);
      expect(replay.stderr).toContain(`raw-trials.jsonl: --replay-tools: not the tool tape of run ${recorded.run.id}: it holds no readable line for 1 of its 1 case that ran (first: shop/refund)`);
      expect(replay.stderr).not.toMatch(STACK_FRAME);
      // No refund issued again, no model call made.
      expect(replay.marker).toEqual([]);
      expect(fake!.count).toBe(calls);
    }
  });
});

describe('run --replay-tools with an isolated function target', () => {
  // ctx.tool runs in the worker thread: the tape goes there with each call and comes back with its answer.
  const isolated = `import { appendFileSync } from 'node:fs';
export default {
  evals: ['evals/*.eval.yaml'],
  outputDir: '.out',
  trace: 'full',
  targets: {
    support: {
      isolate: true,
      function: async (input, ctx) => {
        const refund = await ctx.tool('issue_refund', { orderId: process.env.ORDER }, (args) => {
          appendFileSync(process.env.MARKER, 'refund ' + args.orderId + '\\n');
          return { refundId: 'RF-' + args.orderId };
        });
        return 'Refunded: ' + refund.refundId;
      },
    },
  },
};
`;
  const evalFile = `suite: shop
target: support
cases:
  - id: refund
    input: Refund A1, please.
    assert:
      - type: calledTool
        tool: issue_refund
      - type: contains
        value: RF-A1
`;

  it('replays ctx.tool in the worker; strict refuses a changed argument there', async () => {
    const dir = writeProject({ 'evals.config.mjs': isolated, 'evals/shop.eval.yaml': evalFile });
    const first = await run(dir, ['--json', 'first.json'], 'full', { ORDER: 'A1' });
    expect(first.code, first.stdout + first.stderr).toBe(0);
    expect(first.marker).toEqual(['refund A1']);

    const again = await run(dir, ['--json', 'again.json', '--replay-tools', 'first.json'], 'full', { ORDER: 'A1' });
    expect(again.code, again.stdout + again.stderr).toBe(0);
    expect(again.marker).toEqual([]);
    expect(readResults(join(dir, 'again.json')).cases[0]!.trials[0]!.toolTape).toEqual({ replayed: 1 });

    const strict = await run(dir, ['--json', 'strict.json', '--replay-tools-strict', 'first.json'], 'full', { ORDER: 'B2' });
    expect(strict.code, strict.stdout + strict.stderr).toBe(1);
    expect(strict.marker).toEqual([]);
    const trial = readResults(join(dir, 'strict.json')).cases[0]!.trials[0]!;
    expect(trial.error).toContain('diverged from the tape at step 1: issue_refund called with other arguments than recorded');
    expect(trial.toolTape).toMatchObject({ replayed: 0, diverged: { step: 1, reason: 'arguments' } });
  });
});
