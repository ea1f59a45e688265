/**
 * A judge whose server answers 500 to every request (after the SDK's retries): the trials it
 * judged still fail their gate, but the case and the run count them as judge errors, apart from
 * the case that failed for the agent, and the terminal shows them on their own line.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createJudgeService } from '../../src/judges/create-judge-service.js';
import { terminalReporter } from '../../src/report/terminal.js';
import type { FakeProvider } from '../support/fake-server.js';
import { startFakeOpenAI } from '../support/fake-openai.js';
import { join } from 'node:path';
import { removeTempDirs, stripAnsi } from '../support/cli.js';
import { runCliInProcess } from '../support/cli-in-process.js';
import { runInProcess } from '../support/run-in-process.js';

let fake: FakeProvider | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
  removeTempDirs();
});

const EVALS = `suite: outage
target: agent
repeat: 2
cases:
  - id: judged
    input: where is my order?
    assert:
      - { type: contains, value: shipped }
      - { type: judge, criteria: says the order shipped, severity: gate }
  - id: wrong
    input: where is my refund?
    assert:
      - { type: contains, value: refunded }
`;

// The 500 names a 1 ms retry-after (as `retry-after-ms`, which the SDK honours): the SDK still
// retries, without its default half-second-and-up backoff sleeps.
const OUTAGE = { status: 500, retryAfterMs: 1 } as const;

describe('a judge server answering 500 to everything', () => {
  it('reports judge errors apart from failures, in the JSON and on the terminal', async () => {
    fake = await startFakeOpenAI({ script: () => OUTAGE });
    let out = '';
    const run = await runInProcess({
      files: { 'outage.eval.yaml': EVALS },
      config: {
        targets: { agent: () => 'Your order shipped yesterday.' },
        judge: { provider: 'openai', model: 'gpt-4.1-mini', baseURL: fake.url, maxRetries: 1 },
        concurrency: 1,
        earlyStop: false,
      },
      flags: { cache: false },
      judges: (settings, deps) => createJudgeService({ settings: settings.judging, ...deps, env: { OPENAI_API_KEY: 'test-key' } }),
      reporters: () => [{ name: 'terminal', ...terminalReporter({ out: { write: (t: string) => (out += t) }, live: false, verbose: false }) }],
    });
    // Each judged trial asked once and retried once; the failing case made no judge call.
    expect(fake.count).toBe(4);

    const byId = Object.fromEntries(run.results.cases.map((c) => [c.id, c]));
    // Both still fail: a judge error fails its gate, as before.
    expect(byId.judged!.verdict).toBe('failed');
    expect(byId.wrong!.verdict).toBe('failed');
    expect(byId.judged!.judgeErrors).toBe(2);
    expect(byId.wrong!.judgeErrors).toBe(0);
    expect(byId.judged!.trials.every((t) => t.assertions.some((a) => a.kind === 'judge' && a.status === 'error'))).toBe(true);
    expect(run.results.summary.cases).toMatchObject({ total: 2, failed: 2, flaky: 0 });
    expect(run.results.summary.trials).toMatchObject({ run: 4, passed: 0, judgeErrors: 2 });
    expect(run.exitCode).toBe(1);

    const text = stripAnsi(out);
    const lines = text.split('\n');
    expect(lines.find((l) => l.includes('outage/judged'))).toContain('2 judge errors');
    expect(lines.find((l) => l.includes('outage/wrong'))).not.toContain('judge error');
    expect(lines.filter((l) => l.startsWith('Judge errors'))).toEqual(['Judge errors 2 trials failed because a judge erred, not the agent (still failures; see the [error] lines)']);
  });

  it('compared with a healthy baseline, the outage is no regression: its cases could not be compared', async () => {
    const run = async (script: NonNullable<Parameters<typeof startFakeOpenAI>[0]>['script']) => {
      const server = await startFakeOpenAI({ script });
      try {
        return await runInProcess({
          files: { 'outage.eval.yaml': EVALS.replace('repeat: 2', 'repeat: 3') },
          config: {
            targets: { agent: () => 'Your order shipped yesterday.' },
            judge: { provider: 'openai', model: 'gpt-4.1-mini', baseURL: server.url, maxRetries: 1 },
            concurrency: 1,
            earlyStop: false,
          },
          flags: { cache: false },
          judges: (settings, deps) => createJudgeService({ settings: settings.judging, ...deps, env: { OPENAI_API_KEY: 'test-key' } }),
        });
      } finally {
        await server.close();
      }
    };
    const healthy = await run(() => ({ json: { score: 1, reason: 'says it shipped', evidence: [] } }));
    const outage = await run(() => OUTAGE);
    expect(healthy.results.cases.find((c) => c.id === 'judged')!.verdict).toBe('passed');
    expect(outage.results.cases.find((c) => c.id === 'judged')!.judgeErrors).toBe(3);

    // The CLI's own compare over the two results files: passed 3/3 -> failed 0/3 would be a
    // regression (p = 0.05) were it the agent; judge errors make it "could not compare".
    const r = await runCliInProcess(['compare', join(healthy.dir, 'results.json'), join(outage.dir, 'results.json')], { cwd: outage.dir });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const lines = stripAnsi(r.stdout).split('\n');
    expect(lines.find((l) => l.includes('outage/judged'))).toMatch(/could not compare: judge errors/);
    expect(stripAnsi(r.stdout)).toContain('0 regressed (0 counted, max 0)');
  });
});
