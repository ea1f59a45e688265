/**
 * `agent-evals rejudge <results> --batch <id>` through the CLI (the built CLI's `main` in-process): a
 * `--judge-batch` run whose batch polls fail past their retries (in-process, its poll bound injected so
 * nothing waits on the clock) records the batch id with its requests; the fake OpenAI Batch API then
 * recovers and the batch ends, and the collect reads every verdict from the batch's result file, with
 * no target called and no judge request sent again. Needs dist/ (`npm test` builds it).
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { removeTempDirs, STACK_FRAME } from '../support/cli.js';
import { runCliInProcess } from '../support/cli-in-process.js';
import { startFakeOpenAI, type FakeOpenAI } from '../support/fake-openai.js';
import type { FakeBatchOptions } from '../support/fake-openai-batch.js';
import { readResults } from '../support/results-helpers.js';
import { runInProcess } from '../support/run-in-process.js';
import { createJudgeService } from '../../src/judges/create-judge-service.js';

const KEY = 'sk-test-collect-0123456789';
let fake: FakeOpenAI | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});
afterAll(removeTempDirs);

// Two cases; the judge passes `answer 0` and fails `answer 1` (a gate): a collected verdict flips c1 to failed.
const EVALS = `suite: s
target: agent
cases:
  - { id: c0, input: "0", assert: [{ type: judge, criteria: the reply answers the question, severity: gate }] }
  - { id: c1, input: "1", assert: [{ type: judge, criteria: the reply answers the question, severity: gate }] }
`;
// The CLI's config: the same judge as the recorded run's; its target counts calls in CALLS (none expected).
const CONFIG = (url: string) => `import { appendFileSync } from 'node:fs';
export default {
  evals: ['**/*.eval.yaml'],
  outputDir: '.out',
  targets: { agent(input) { appendFileSync(process.env.CALLS, input + '\\n'); return 'answer ' + input; } },
  judge: { provider: 'openai', model: 'gpt-4.1-mini', baseURL: ${JSON.stringify(url)}, maxRetries: 0 },
};
`;

const chatCalls = (f: FakeOpenAI) => f.requests.filter((r) => r.path === '/v1/chat/completions').length;

/** A `--judge-batch` run whose first batch poll answers 500 past its (zero) retries, with a 1 ms poll-failure bound. */
async function uncollectedRun(batch: FakeBatchOptions = {}) {
  fake = await startFakeOpenAI({
    batch: { failingPolls: 1, ...batch },
    script: (body: { messages: Array<{ content: unknown }> }) => {
      const n = Number(/answer (\d+)/.exec(String(body.messages.at(-1)!.content))?.[1]);
      return { json: { score: n === 0 ? 1 : 0.2, reason: `answer ${n}`, evidence: [] } };
    },
  });
  let targetCalls = 0;
  const url = fake.url;
  const run = await runInProcess({
    files: { 'evals/s.eval.yaml': EVALS, 'evals.config.mjs': CONFIG(url) },
    config: {
      targets: { agent: (input: string) => (targetCalls++, `answer ${input}`) },
      judge: { provider: 'openai', model: 'gpt-4.1-mini', baseURL: url, maxRetries: 0 },
      earlyStop: false,
    },
    judges: (settings, deps) => createJudgeService({ settings: settings.judging, ...deps, env: { OPENAI_API_KEY: KEY } }),
    flags: { judgeBatch: true, cache: false },
    batchPolling: { pollFailureMs: 1, sleep: async () => {} },
  });
  const dir = run.dir;
  writeFileSync(join(dir, 'r.json'), JSON.stringify(run.results));
  const env = { CALLS: join(dir, 'calls.txt'), OPENAI_API_KEY: KEY, OPENAI_BASE_URL: url };
  const cli = (args: string[]) => runCliInProcess(args, { cwd: dir, env });
  const id = fake.batches.creates[0]!.id;
  /** Time passing at the provider: each poll moves the fake batch one step (validating → in_progress → ended). */
  const advance = async (polls: number) => {
    for (let k = 0; k < polls; k++) await fetch(`${url}/batches/${id}`, { headers: { authorization: `Bearer ${KEY}` } });
  };
  return { run, dir, cli, id, advance, targetCalls: () => targetCalls + (existsSync(env.CALLS) ? readFileSync(env.CALLS, 'utf8').split('\n').filter(Boolean).length : 0) };
}

describe('agent-evals rejudge --batch', () => {
  it('a poll failing past retries leaves the batch id in the results; a later collect reads every verdict, calling no target and asking nothing again', async () => {
    const { run, dir, cli, id, advance, targetCalls } = await uncollectedRun();
    // Meanwhile: the batch id and its requests are in the results, its judgments errors naming it, the run failed.
    expect(run.results.summary.uncollectedBatches?.map((b) => [b.id, b.requests?.length])).toEqual([[id, 2]]);
    const judged = run.results.cases.flatMap((c) => c.trials.flatMap((t) => t.assertions));
    expect(judged.map((a) => a.status)).toEqual(['error', 'error']);
    expect(judged.every((a) => a.message.includes(`judge batch ${id}`) && a.message.includes(`agent-evals rejudge <results> --batch ${id}`))).toBe(true);
    expect(run.results.summary.trials.passed).toBe(0);
    expect(run.exitCode).toBe(1);
    expect(targetCalls()).toBe(2);
    expect(chatCalls(fake!)).toBe(0);

    // The provider recovers and the batch ends.
    await advance(2);
    const recordedText = readFileSync(join(dir, 'r.json'), 'utf8');
    const res = await cli(['rejudge', 'r.json', '--batch', id, '--no-cache']);
    // c1's collected verdict fails its gate: the re-judged run fails.
    expect(res.code, res.stdout + res.stderr).toBe(1);
    expect(res.stderr).toContain(`judge batch ${id} (openai:gpt-4.1-mini): 2 answers collected`);
    expect(targetCalls()).toBe(2);
    // Zero new judge requests: no new batch, no live call.
    expect(fake!.batches.creates).toHaveLength(1);
    expect(chatCalls(fake!)).toBe(0);

    const out = readResults(join(dir, 'r.rejudged.json'));
    expect(out.run.rejudgedFrom?.runId).toBe(run.results.run.id);
    expect(out.summary.uncollectedBatches).toBeUndefined();
    const byId = new Map(out.cases.map((c) => [c.id, c]));
    expect(byId.get('c0')).toMatchObject({ verdict: 'passed', passed: 1 });
    expect(byId.get('c1')).toMatchObject({ verdict: 'failed', passed: 0 });
    const a0 = byId.get('c0')!.trials[0]!.assertions[0]!;
    const a1 = byId.get('c1')!.trials[0]!.assertions[0]!;
    // Read as any batch judgment: the judge's own score and reason, answered through the batch.
    expect([a0.status, a0.score, a0.reason, a0.judge?.batch]).toEqual(['passed', 1, 'answer 0', true]);
    expect([a1.status, a1.score, a1.reason, a1.judge?.batch]).toEqual(['failed', 0.2, 'answer 1', true]);
    expect(out.summary.trials.judgeErrors).toBeUndefined();
    expect(readFileSync(join(dir, 'r.json'), 'utf8')).toBe(recordedText);
  });

  it('a batch still in progress past --batch-wait, or one that expired at the provider, is exit 2 and writes nothing', async () => {
    const { dir, cli, id, advance, targetCalls } = await uncollectedRun({ expire: true });
    const waiting = await cli(['rejudge', 'r.json', '--batch', id, '--batch-wait', '0']);
    expect(waiting.code, waiting.stdout + waiting.stderr).toBe(2);
    expect(waiting.stderr).toMatch(new RegExp(`judge batch ${id} \\(openai:gpt-4\\.1-mini\\) is still in progress at the provider \\(0/2 done\\)`));
    expect(existsSync(join(dir, 'r.rejudged.json'))).toBe(false);

    await advance(1);
    const expired = await cli(['rejudge', 'r.json', '--batch', id]);
    expect(expired.code, expired.stdout + expired.stderr).toBe(2);
    expect(expired.stderr).toContain(`judge batch ${id} (openai:gpt-4.1-mini) expired at the provider`);
    expect(expired.stderr).toContain('no results file was written');
    expect(expired.stderr).not.toMatch(STACK_FRAME);
    expect(existsSync(join(dir, 'r.rejudged.json'))).toBe(false);

    const unknown = await cli(['rejudge', 'r.json', '--batch', 'batch_nope']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain(`r.json holds no uncollected judge batch batch_nope (summary.uncollectedBatches: it lists ${id})`);
    expect(targetCalls()).toBe(2);
    expect(fake!.batches.creates).toHaveLength(1);
  });
});
