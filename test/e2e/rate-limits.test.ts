/**
 * The runner end to end (in-process) over a model-agent target whose fake OpenAI server
 * misbehaves: 429 storms complete without losing trials, a 401 fails fast naming the key's
 * variable, a dropped connection is retried.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { limiterFor } from '../../src/providers/adaptive-limit.js';
import { limiterKeyFor } from '../../src/providers/create.js';
import { startFakeOpenAI, type FakeOpenAIOptions } from '../support/fake-openai.js';
import type { FakeProvider, Scripted } from '../support/fake-server.js';
import { runInProcess } from './run-in-process.js';

let fake: FakeProvider | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
  vi.unstubAllEnvs();
});

/** `n` cases asking for "ping <i>", `repeat` trials each; the reply must echo the case's own number. */
function suite(n: number, repeat: number): Record<string, string> {
  const cases = Array.from({ length: n }, (_, i) => `  - id: q${i}\n    input: ping ${i}\n    assert:\n      - { type: equals, value: pong ${i} }`);
  return { 'evals/storm.eval.yaml': `suite: storm\ntarget: agent\nrepeat: ${repeat}\ncases:\n${cases.join('\n')}\n` };
}

const pong = (body: any): Scripted => ({ text: String(body.messages.at(-1).content).replace('ping', 'pong'), usage: { input: 10, output: 2 } });

/** Every third request (by arrival) is rate limited; the rest answer. */
function everyThird(rateLimited: Scripted) {
  return (body: any, index: number): Scripted => (index % 3 === 2 ? rateLimited : pong(body));
}

async function setup(options: FakeOpenAIOptions, spec: Record<string, unknown> = {}) {
  fake = await startFakeOpenAI(options);
  vi.stubEnv('OPENAI_API_KEY', 'sk-test-dummy-key-000000');
  const model = { provider: 'openai' as const, model: 'gpt-4.1-mini', baseURL: fake.url, ...spec };
  return { fake, model, limiter: () => limiterFor(limiterKeyFor(model, { OPENAI_API_KEY: 'x' })) };
}

describe('a model-agent suite against a misbehaving provider', () => {
  it('completes 50 trials with correct results when every third request is a 429 (retry-after-ms)', async () => {
    // Up to 10 retries: with 8 trials in flight, a retried request can land on another "third" slot.
    const { fake, model, limiter } = await setup({ script: everyThird({ status: 429, retryAfterMs: 20 }) }, { maxRetries: 10 });
    const { results, exitCode } = await runInProcess({ files: suite(10, 5), config: { targets: { agent: { model } }, concurrency: 8 } });

    expect(exitCode).toBe(0);
    expect(results.summary.trials).toMatchObject({ planned: 50, run: 50, notRun: 0, passed: 50 });
    for (const c of results.cases) for (const t of c.trials) expect(t.reply).toBe(`pong ${c.id.slice(1)}`);
    const rateLimited = fake.requests.length - 50;
    expect(rateLimited).toBeGreaterThanOrEqual(Math.floor(fake.requests.length / 3));
    expect(limiter().rateLimits).toBe(rateLimited);
    // Failed attempts bill nothing: exactly one call per trial is counted.
    expect(results.summary.usage.target).toMatchObject({ calls: 50, inputTokens: 500, outputTokens: 100 });
  });

  it('honours retry-after: 1 (seconds) and loses no trial', async () => {
    const { fake, model } = await setup({ script: everyThird({ status: 429, retryAfter: 1 }) }, { maxRetries: 10 });
    const started = Date.now();
    const { results, exitCode } = await runInProcess({ files: suite(3, 2), config: { targets: { agent: { model } }, concurrency: 3 } });
    expect(exitCode).toBe(0);
    expect(results.summary.trials).toMatchObject({ run: 6, passed: 6 });
    expect(fake.requests.length).toBeGreaterThan(6);
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
  });

  it('fails fast on a 401, naming the environment variable, without retrying', async () => {
    const { fake, model } = await setup({ apiKey: 'sk-the-right-key-123456', script: pong });
    const started = Date.now();
    const { results, exitCode } = await runInProcess({ files: suite(2, 1), config: { targets: { agent: { model } } } });
    expect(exitCode).toBe(1);
    for (const c of results.cases) {
      expect(c.trials[0]!.error).toBe('target agent: authentication failed for openai: check OPENAI_API_KEY');
    }
    expect(fake.requests.length).toBe(2); // one per trial: no retries
    expect(JSON.stringify(results)).not.toContain('sk-test-dummy-key');
    expect(Date.now() - started).toBeLessThan(3_000);
  });

  it('retries a dropped connection', async () => {
    let dropped = false;
    const { fake, model } = await setup({
      script: (body) => {
        if (dropped) return pong(body);
        dropped = true;
        return { drop: true };
      },
    });
    const { results, exitCode } = await runInProcess({ files: suite(1, 1), config: { targets: { agent: { model } } } });
    expect(exitCode).toBe(0);
    expect(results.cases[0]!.trials[0]).toMatchObject({ verdict: 'passed', reply: 'pong 0' });
    expect(fake.requests.length).toBe(2);
  });
});
