/**
 * Every token counted, and the run ends without the answers it no longer waits for (issue 9, items
 * 7, 9, 10, 12), through the built CLI against the fake OpenAI server with the real SDK: a function
 * target whose SDK call outlives the trial timeout, `--dry-run` with ctx.openai(), `--max-cost` with
 * unpriced spenders, and a reader that closes the pipe early. Needs dist/ (`npm test` builds it).
 * How the process ends on a closed pipe is the spawned binary's; the rest runs the CLI's `main`
 * in-process, the late-answer test on a trial clock that the test runs out.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ResultsSchema, type Results } from '../../src/core/results-schema.js';
import { CLI, fixtureDir, removeTempDirs, STACK_FRAME, tempDir } from '../support/cli.js';
import { runCliInProcess } from '../support/cli-in-process.js';
import { startFakeOpenAI } from '../support/fake-openai.js';
import type { FakeProvider } from '../support/fake-server.js';
import { storeModel } from '../support/fake-store-model.js';

let fakes: FakeProvider[] = [];
afterEach(async () => {
  vi.useRealTimers();
  await Promise.all(fakes.map((f) => f.close()));
  fakes = [];
  removeTempDirs();
});

/** A throwaway project: an .mjs config (function targets need no import) and YAML eval files. */
function project(config: string, evals: Record<string, string>): string {
  const dir = tempDir();
  writeFileSync(join(dir, 'evals.config.mjs'), config);
  mkdirSync(join(dir, 'evals'));
  for (const [name, text] of Object.entries(evals)) writeFileSync(join(dir, 'evals', name), text);
  return dir;
}

/** The trial timeout of the late-answer test: on a faked clock, run out by the test once the late call is asked. */
const TRIAL_TIMEOUT_MS = '8000';

const readResults = (path: string): Results => ResultsSchema.parse(JSON.parse(readFileSync(path, 'utf8')));

const sdkAgentConfig = `
export default {
  evals: ['evals/*.eval.yaml'],
  outputDir: '.out',
  concurrency: 1,
  targets: {
    // Two SDK calls without the abort signal: the second one outlives the trial.
    'sdk-agent': async (input, ctx) => {
      const openai = await ctx.openai();
      const first = await openai.chat.completions.create({ model: 'gpt-4.1-mini', messages: [{ role: 'user', content: input }] });
      const second = await openai.chat.completions.create({ model: 'gpt-4.1-mini', messages: [{ role: 'user', content: 'more' }] });
      return first.choices[0].message.content + ' ' + second.choices[0].message.content;
    },
  },
};
`;

describe('a function target whose SDK call outlives the trial timeout', () => {
  it('keeps the usage of its calls, lets --max-cost count it, and the CLI ends its run before the late answer', async () => {
    let lateAsked = false;
    // The trial's clock is faked: it runs out when the second call reaches the server (an event the
    // test controls), however long loading the SDK and the first answer took on a busy machine.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const fake = await startFakeOpenAI({
      script: (_body, index) => {
        if (index % 2 === 0) return { text: 'first', usage: { input: 1000, output: 100 }, model: 'gpt-4.1-mini-2025-04-14' };
        lateAsked = true;
        setImmediate(() => {
          vi.advanceTimersByTime(Number(TRIAL_TIMEOUT_MS));
          // What the run does after its trial (write, report) keeps the real clock.
          vi.useRealTimers();
        });
        // The late answer waits on the faked clock, which stops here: it is never sent before the fake closes.
        return { delayMs: 600_000, then: { text: 'late', usage: { input: 5000, output: 500 } } };
      },
    });
    fakes.push(fake);
    const yaml = `suite: slow\ntarget: sdk-agent\ncases:\n  - id: a\n    input: hi\n    assert: [{ type: contains, value: late }]\n  - id: b\n    input: hi\n    assert: [{ type: contains, value: late }]\n`;
    const dir = project(sdkAgentConfig, { 'slow.eval.yaml': yaml });
    const json = join(dir, 'results.json');
    // The first call costs (1000 × 0.4 + 100 × 1.6) / 1e6 = $0.00056: above this budget.
    const res = await runCliInProcess(['run', '--timeout', TRIAL_TIMEOUT_MS, '--max-cost', '0.0001', '--json', json], {
      cwd: dir,
      env: { OPENAI_API_KEY: 'sk-test-dummy-key-000000', OPENAI_BASE_URL: fake.url },
    });

    // The run ended while the server still held the late answer (it is never sent before the fake closes).
    expect(lateAsked).toBe(true);
    expect(res.code).toBe(1);
    expect(res.stdout).toMatch(/cost budget/);
    expect(res.stderr).not.toMatch(STACK_FRAME);

    const results = readResults(json);
    const [a, b] = results.cases;
    const trial = a!.trials[0]!;
    expect(trial.error).toMatch(new RegExp(`timed out after ${TRIAL_TIMEOUT_MS} ms`));
    expect(trial.error).toMatch(/1 model call was still waiting for an answer: counted, tokens and cost unknown/);
    // The answered call with its tokens; the unanswered one as a call whose usage is unknown.
    expect(trial.trace.steps).toEqual([
      { usage: { inputTokens: 1000, outputTokens: 100, cachedInputTokens: 0, reasoningTokens: 0 }, model: 'openai:gpt-4.1-mini-2025-04-14' },
      { model: 'openai:gpt-4.1-mini', usageUnknown: true },
    ]);
    expect(trial.usage.target).toEqual({ calls: 2, inputTokens: 1000, outputTokens: 100, cachedInputTokens: 0, reasoningTokens: 0, costUsd: null });
    // The budget counted the answered call: the second case never started.
    expect(b).toMatchObject({ verdict: 'skipped', notRun: 1, notRunReason: 'budget' });
    expect(fake.count).toBe(2);
  });
});

describe('--dry-run with a function target that uses ctx.openai()', () => {
  it('makes no request to the server: the SDK gets the placeholder answer with zero usage', async () => {
    const fake = await startFakeOpenAI({ script: () => ({ text: 'should not be asked', usage: { input: 10, output: 5 } }) });
    fakes.push(fake);
    const config = `
export default {
  evals: ['evals/*.eval.yaml'],
  outputDir: '.out',
  targets: {
    agent: async (input, ctx) => {
      const openai = await ctx.openai();
      const plain = await openai.chat.completions.create({ model: 'gpt-4.1-mini', messages: [{ role: 'user', content: input }] });
      const stream = await openai.chat.completions.create({ model: 'gpt-4.1-mini', messages: [{ role: 'user', content: input }], stream: true, stream_options: { include_usage: true } });
      let streamed = '';
      for await (const part of stream) streamed += part.choices[0]?.delta.content ?? '';
      return plain.choices[0].message.content + ' | ' + streamed;
    },
  },
};
`;
    const dir = project(config, { 'a.eval.yaml': 'suite: dry\ntarget: agent\ncases:\n  - id: a\n    input: hi\n    assert: [{ type: contains, value: dry run }]\n' });
    const json = join(dir, 'results.json');
    // No API key either: a dry run needs none.
    const res = await runCliInProcess(['run', '--dry-run', '--json', json], { cwd: dir, env: { OPENAI_API_KEY: undefined, OPENAI_BASE_URL: fake.url } });
    expect(res.code, res.stdout + res.stderr).toBe(0);
    expect(fake.count).toBe(0);
    const trial = readResults(json).cases[0]!.trials[0]!;
    expect(trial.reply).toBe('[dry run: the model was not called] | [dry run: the model was not called]');
    expect(trial.usage.target).toEqual({ calls: 2, inputTokens: 0, outputTokens: 0, cachedInputTokens: 0, reasoningTokens: 0, costUsd: 0 });
  });
});

describe('--max-cost with models of unknown price', () => {
  it('exits 2 before any call, naming them, when no spender can be priced', async () => {
    const fake = await startFakeOpenAI({ script: storeModel });
    fakes.push(fake);
    const res = await runCliInProcess(['run', '--max-cost', '1', '--filter', 'unpriced/*'], {
      cwd: fixtureDir('model-agent'),
      env: { OPENAI_API_KEY: 'sk-test-dummy-key-000000', OPENAI_BASE_URL: fake.url, OUT_DIR: tempDir() },
    });
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/--max-cost: the cost budget cannot be enforced: no price is known for target "local-agent" \(openai:my-local-model\)/);
    expect(res.stderr).not.toMatch(STACK_FRAME);
    expect(fake.count).toBe(0);
  });

  it('names unpriced judges as well', async () => {
    const fake = await startFakeOpenAI({ script: () => ({ text: 'should not be asked' }) });
    fakes.push(fake);
    const config = `export default { evals: ['evals/*.eval.yaml'], outputDir: '.out', judge: 'openai:my-judge-model', targets: { local: { model: 'openai:my-local-model' } } };`;
    const dir = project(config, { 'a.eval.yaml': 'suite: s\ntarget: local\ncases:\n  - id: a\n    input: hi\n    assert: [{ type: judge, criteria: Is it polite? }]\n' });
    const res = await runCliInProcess(['run', '--max-cost', '1'], { cwd: dir, env: { OPENAI_API_KEY: 'sk-test-dummy-key-000000', OPENAI_BASE_URL: fake.url } });
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('no price is known for target "local" (openai:my-local-model), judge (openai:my-judge-model)');
    expect(fake.count).toBe(0);
  });

  it('only warns when a function target may still spend priced tokens (its models are known only as it runs)', async () => {
    const config = `export default { evals: ['evals/*.eval.yaml'], outputDir: '.out', judge: 'openai:my-judge-model', targets: { fn: () => 'polite reply' } };`;
    const fake = await startFakeOpenAI({ script: () => ({ json: { score: 1, reason: 'polite' } }) });
    fakes.push(fake);
    const dir = project(config, { 'a.eval.yaml': 'suite: s\ntarget: fn\ncases:\n  - id: a\n    input: hi\n    assert: [{ type: judge, criteria: Is it polite? }]\n' });
    const res = await runCliInProcess(['run', '--max-cost', '1'], { cwd: dir, env: { OPENAI_API_KEY: 'sk-test-dummy-key-000000', OPENAI_BASE_URL: fake.url } });
    // The run went ahead (the judge was asked); how it graded is not the point here.
    expect(res.code, res.stdout + res.stderr).not.toBe(2);
    expect(fake.count).toBeGreaterThan(0);
    expect(res.stdout + res.stderr).toContain('--max-cost: no price is known for judge (openai:my-judge-model): the budget cannot count what they spend');
  });

  it('warns at the start, naming the unpriced one, when another spender is priced', async () => {
    const fake = await startFakeOpenAI({ script: storeModel });
    fakes.push(fake);
    const out = tempDir();
    const json = join(out, 'r.json');
    const res = await runCliInProcess(['run', '--max-cost', '100', '--json', json], {
      cwd: fixtureDir('model-agent'),
      env: { OPENAI_API_KEY: 'sk-test-dummy-key-000000', OPENAI_BASE_URL: fake.url, OUT_DIR: join(out, '.agent-evals') },
    });
    expect(res.code, res.stdout + res.stderr).toBe(0);
    const warning = '--max-cost: no price is known for target "local-agent" (openai:my-local-model): the budget cannot count what they spend';
    expect(res.stdout + res.stderr).toContain(warning);
    expect(readResults(json).summary.warnings).toContain(`${warning} (add them under \`pricing\` in the config)`);
    expect(res.stdout + res.stderr).not.toMatch(/target "store-agent" \(/);
  });
});

describe('a reader that closes the pipe early (agent-evals run | head)', () => {
  it('ends the output quietly: no EPIPE stack, the run still finishes with its exit code', async () => {
    const dir = project(`export default { evals: ['evals/*.eval.yaml'], outputDir: '.out', targets: { echo: (input) => 'echo ' + input } };`, {
      'a.eval.yaml': 'suite: s\ntarget: echo\ncases:\n' + Array.from({ length: 20 }, (_, i) => `  - id: c${i}\n    input: hi\n    assert: [{ type: contains, value: echo }]\n`).join(''),
    });
    const json = join(dir, 'r.json');
    const child = spawn(process.execPath, [CLI, 'run', '--verbose', '--json', json], { cwd: dir, env: { ...process.env, NO_COLOR: '1', CI: '' }, stdio: ['ignore', 'pipe', 'pipe'] });
    // What `head` does once it has its lines: close its end of the pipe.
    child.stdout.destroy();
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const code = await new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)));
    expect(stderr).not.toMatch(/EPIPE/);
    expect(stderr).not.toMatch(STACK_FRAME);
    expect(code).toBe(0);
    expect(readResults(json).summary.cases.passed).toBe(20);
  });
});
