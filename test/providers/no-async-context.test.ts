/**
 * A model-agent trial's path enters no AsyncLocalStorage: once one is entered, Node runs a hook on
 * every promise of the process for the rest of the run. Deadlines paused behind a 429 reach the
 * rate-limited fetch with the call (deadline-pause.ts), not through an async context. The trial
 * here takes that whole path: a case timeout and a target timeout (two deadlines), a 429 whose
 * retry waits for its slot (the deadlines paused), then the answer.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { limiterKeyFor } from '../../src/providers/create.js';
import { startFakeOpenAI } from '../support/fake-openai.js';
import type { FakeProvider } from '../support/fake-server.js';
import { runInProcess } from '../support/run-in-process.js';

let fake: FakeProvider | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
});

describe('the model-call path', () => {
  it('runs a model-agent trial, a 429 and its paused deadlines included, without entering an AsyncLocalStorage', async () => {
    fake = await startFakeOpenAI({ script: (_body, index) => (index === 0 ? { status: 429, retryAfterMs: 20 } : { text: 'pong', usage: { input: 10, output: 2 } }) });
    vi.stubEnv('OPENAI_API_KEY', 'sk-test-dummy-key-000000');
    const model = { provider: 'openai' as const, model: 'gpt-4.1-mini', baseURL: fake.url };
    const files = { 'evals/one.eval.yaml': 'suite: one\ntarget: agent\ncases:\n  - id: q0\n    input: ping\n    timeoutMs: 60000\n    assert:\n      - { type: equals, value: pong }\n' };
    // Observed, not replaced: each still does what it does.
    const run = vi.spyOn(AsyncLocalStorage.prototype, 'run');
    const enterWith = vi.spyOn(AsyncLocalStorage.prototype, 'enterWith');
    const result = await runInProcess({ files, config: { targets: { agent: { model, timeoutMs: 60_000 } } } });
    expect(result.results.cases[0]!.trials[0]).toMatchObject({ verdict: 'passed', reply: 'pong' });
    expect(result.limiters.get(limiterKeyFor(model, { OPENAI_API_KEY: 'x' }))!.rateLimits).toBe(1);
    expect(fake.requests.length).toBe(2);
    expect(run).not.toHaveBeenCalled();
    expect(enterWith).not.toHaveBeenCalled();
  });
});
