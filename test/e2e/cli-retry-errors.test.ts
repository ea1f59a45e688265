/**
 * `agent-evals run --retry-errors <results.json>` through the built CLI (in-process): a model-agent
 * target talks to a fake OpenAI server that answers 500 to three of six trials (the SDK's retries off:
 * `maxRetries: 0`, so the first 500 ends the trial). The retry re-runs exactly those three, keeps
 * the other three as recorded (no request for them), and writes one complete, passing document whose
 * usage covers all six. A failed verdict is not retried; a changed case is refused. Needs dist/.
 */
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { removeTempDirs, STACK_FRAME } from '../support/cli.js';
import { runCliInProcess } from '../support/cli-in-process.js';
import { startFakeOpenAI, type FakeOpenAI } from '../support/fake-openai.js';
import { readResults } from '../support/results-helpers.js';
import { writeProject } from '../support/temp-project.js';

let fake: FakeOpenAI | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});
afterAll(removeTempDirs);

const CONFIG = `export default {
  targets: { bot: { model: { provider: 'openai', model: 'gpt-4.1-mini', maxRetries: 0 } } },
  concurrency: 1,
  reporters: ['terminal', 'json'],
};
`;
const evalFile = (last = 'q6') =>
  `suite: s\ntarget: bot\ncases:\n${['q1', 'q2', 'q3', 'q4', 'q5', last].map((q, i) => `  - { id: c${i + 1}, input: ${q}, assert: [{ type: contains, value: ok }] }\n`).join('')}`;

/** The question a chat request asks (its last user message). */
const asked = (body: { messages: Array<{ role: string; content: unknown }> }) => String(body.messages.filter((m) => m.role === 'user').at(-1)?.content);

/** A run where q2, q4 and q6 hit the outage; `wrong` gets a reply that fails its assertion (the agent's failure). */
async function recordedWithOutage(wrong?: string) {
  // While `down` holds them, these questions get a 500 (OpenAI's error shape).
  const down = new Set(['q2', 'q4', 'q6']);
  fake = await startFakeOpenAI({
    script: (body: { messages: Array<{ role: string; content: unknown }> }) => {
      const q = asked(body);
      return down.has(q) ? { status: 500, message: 'The server had an error while processing your request.' } : { text: q === wrong ? 'no' : `ok ${q}`, usage: { input: 10, output: 5 } };
    },
  });
  const dir = writeProject({ 'evals.config.mjs': CONFIG, 'evals/s.eval.yaml': evalFile() });
  const cli = (args: string[]) => runCliInProcess(args, { cwd: dir, env: { OPENAI_API_KEY: 'sk-test-dummy-key-000000', OPENAI_BASE_URL: fake!.url } });
  const first = await cli(['run']);
  expect(first.code, first.stdout + first.stderr).toBe(1);
  copyFileSync(join(dir, '.agent-evals', 'results.json'), join(dir, 'first.json'));
  const chats = () => fake!.requests.filter((r) => r.path === '/v1/chat/completions').map((r) => asked(r.body as never));
  return { dir, cli, chats, down, first: readResults(join(dir, 'first.json')) };
}

describe('run --retry-errors', () => {
  it('re-runs exactly the 3 trials that ended in a provider error; the merged results are complete and pass', async () => {
    const { dir, cli, chats, down, first } = await recordedWithOutage();
    expect(chats()).toEqual(['q1', 'q2', 'q3', 'q4', 'q5', 'q6']);
    expect(first.cases.filter((c) => c.trials[0]!.error !== undefined).map((c) => c.id)).toEqual(['c2', 'c4', 'c6']);

    down.clear();
    const r = await cli(['run', '--retry-errors', 'first.json']);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stderr).toContain('retrying 3 trials that ended in an error (3 target, 0 judge) in 3 cases; 3 trials kept, up to 3 to run');
    // Exactly the three errored trials asked the provider again.
    expect(chats().slice(6)).toEqual(['q2', 'q4', 'q6']);

    const merged = readResults(join(dir, '.agent-evals', 'results.json'));
    expect(merged.cases.map((c) => [c.id, c.verdict, c.trials.length])).toEqual([
      ['c1', 'passed', 1],
      ['c2', 'passed', 1],
      ['c3', 'passed', 1],
      ['c4', 'passed', 1],
      ['c5', 'passed', 1],
      ['c6', 'passed', 1],
    ]);
    // The kept trials are the recorded ones, grades and usage as they were.
    for (const id of ['c1', 'c3', 'c5']) expect(merged.cases.find((c) => c.id === id)!.trials).toEqual(first.cases.find((c) => c.id === id)!.trials);
    expect(merged.summary.trials).toMatchObject({ planned: 6, run: 6, notRun: 0, passed: 6 });
    expect(merged.summary.cases).toMatchObject({ total: 6, passed: 6 });
    // Usage covers the kept trials and the retried ones: six answered calls of 10 + 5 tokens.
    expect(merged.summary.usage.target).toMatchObject({ calls: 6, inputTokens: 60, outputTokens: 30 });
    expect(merged.summary.usage.target.costUsd).toBeCloseTo(2 * first.summary.usage.target.costUsd!, 12);
    expect(merged.summary.usage.target.costUsd).toBeGreaterThan(0);
  });

  it("does not retry a failed verdict (the agent's), and with no error left a second retry runs nothing", async () => {
    const { dir, cli, chats, down } = await recordedWithOutage('q5');
    down.clear();
    expect((await cli(['run', '--retry-errors', 'first.json', '--json', 'second.json'])).code).toBe(1);
    expect(chats().slice(6)).toEqual(['q2', 'q4', 'q6']);
    expect(readResults(join(dir, 'second.json')).cases.find((c) => c.id === 'c5')).toMatchObject({ verdict: 'failed', passed: 0 });
    const again = await cli(['run', '--retry-errors', 'second.json', '--json', 'third.json']);
    expect(again.stderr).toContain('retrying no trial: none in second.json ended in an error');
    expect(chats()).toHaveLength(9);
    expect(readResults(join(dir, 'third.json')).summary.trials).toMatchObject({ run: 6, passed: 5 });
  });

  it('refuses (exit 2, no request) when a case changed since the recording', async () => {
    const { dir, cli, chats } = await recordedWithOutage();
    writeFileSync(join(dir, 'evals', 's.eval.yaml'), evalFile('q7'));
    const r = await cli(['run', '--retry-errors', 'first.json']);
    expect(r.code, r.stdout + r.stderr).toBe(2);
    expect(r.stderr).toMatch(/first\.json: --retry-errors: the plan changed since that run: case s\/c6 changed since the recording/);
    expect(r.stderr).not.toMatch(STACK_FRAME);
    expect(chats()).toHaveLength(6);
  });
});

describe('run --retry-errors with a judge outage', () => {
  it('re-runs the trials whose judge erred (a 500), not those it failed', async () => {
    // The judge's retries off: its first 500 is the judged assertion's error.
    const config = `import { appendFileSync } from 'node:fs';
export default {
  targets: { agent(input) { appendFileSync(process.env.CALLS, input + '\\n'); return 'ok ' + input; } },
  judge: { provider: 'openai', model: 'gpt-4.1-mini', maxRetries: 0 },
  reporters: ['terminal', 'json'],
};
`;
    const cases = ['j1', 'j2', 'j3', 'j4'].map((q, i) => `  - { id: c${i + 1}, input: ${q}, assert: [{ type: judge, criteria: is polite, severity: gate }] }\n`).join('');
    let down = true;
    const judged: string[] = [];
    fake = await startFakeOpenAI({
      script: (body: { messages: Array<{ content: unknown }> }) => {
        const q = /ok (j\d)/.exec(JSON.stringify(body.messages))![1]!;
        judged.push(q);
        if (down && (q === 'j1' || q === 'j3')) return { status: 500, message: 'The server had an error while processing your request.' };
        return { json: { score: q === 'j4' ? 0 : 1, reason: 'r', evidence: [] } };
      },
    });
    const dir = writeProject({ 'evals.config.mjs': config, 'evals/s.eval.yaml': `suite: s\ntarget: agent\ncases:\n${cases}` });
    const env = { CALLS: join(dir, 'calls.txt'), OPENAI_API_KEY: 'sk-test-dummy-key-000000', OPENAI_BASE_URL: fake.url };
    const cli = (args: string[]) => runCliInProcess(args, { cwd: dir, env });
    expect((await cli(['run', '--no-cache'])).code).toBe(1);
    const first = readResults(join(dir, '.agent-evals', 'results.json'));
    expect(first.summary.trials.judgeErrors).toBe(2);

    down = false;
    const r = await cli(['run', '--no-cache', '--retry-errors', '.agent-evals/results.json']);
    expect(r.stderr).toContain('retrying 2 trials that ended in an error (0 target, 2 judge) in 2 cases');
    // j4's failed judgment is a verdict: kept, its judge not asked again.
    expect(judged.slice(4).sort()).toEqual(['j1', 'j3']);
    const calls = readFileSync(env.CALLS, 'utf8').split('\n').filter(Boolean);
    expect(calls.slice(4).sort()).toEqual(['j1', 'j3']);
    expect(calls).toHaveLength(6);
    const merged = readResults(join(dir, '.agent-evals', 'results.json'));
    expect(merged.cases.map((c) => [c.id, c.verdict])).toEqual([
      ['c1', 'passed'],
      ['c2', 'passed'],
      ['c3', 'passed'],
      ['c4', 'failed'],
    ]);
    expect(merged.summary.trials.judgeErrors).toBeUndefined();
  });
});
