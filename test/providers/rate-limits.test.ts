/**
 * The runner end to end (in-process) over a model-agent target whose fake OpenAI server
 * misbehaves: 429 storms complete without losing trials, a 401 fails fast naming the key's
 * variable, a dropped connection is retried.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { limiterKeyFor } from '../../src/providers/create.js';
import { startFakeOpenAI, type FakeOpenAIOptions } from '../support/fake-openai.js';
import type { FakeProvider, Scripted } from '../support/fake-server.js';
import { z } from 'zod';
import { tool } from '../../src/targets/tool.js';
import { runInProcess, type InProcessRun } from '../support/run-in-process.js';
import { noJudgeService } from '../../src/judges/judge-service.js';
import type { ProviderLimiters } from '../../src/providers/adaptive-limit.js';

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

// Replies take 0-30 ms, so several requests are in flight when a 429 lands, as against a real API.
const pong = (body: any): Scripted => ({ text: String(body.messages.at(-1).content).replace('ping', 'pong'), usage: { input: 10, output: 2 }, delayMs: Math.random() * 30 });

/** Every third request (by arrival) is rate limited; the rest answer. */
function everyThird(rateLimited: Scripted) {
  return (body: any, index: number): Scripted => (index % 3 === 2 ? rateLimited : pong(body));
}

async function setup(options: FakeOpenAIOptions, spec: Record<string, unknown> = {}) {
  fake = await startFakeOpenAI(options);
  vi.stubEnv('OPENAI_API_KEY', 'sk-test-dummy-key-000000');
  const model = { provider: 'openai' as const, model: 'gpt-4.1-mini', baseURL: fake.url, ...spec };
  // The endpoint's limiter among the run's own (the run makes its limiters; it reports them back).
  return { fake, model, limiter: (run: InProcessRun) => run.limiters.get(limiterKeyFor(model, { OPENAI_API_KEY: 'x' }))! };
}

describe('a model-agent suite against a misbehaving provider', () => {
  // The fake rate-limits every third request by arrival, whoever sends it. A 429 halves the
  // endpoint's limiter and pauses it for the retry-after; the retry goes first when the pause ends.
  // Each request can then lose at most one attempt per halving (8 → 4 → 2 → 1), and once requests go
  // one at a time a retry is never a third arrival: the default 4 attempts always suffice. The
  // price is time: at one request at a time every third request waits out the retry-after, so the
  // pause is kept short (20 ms) for the run to take seconds; the guarantee does not depend on its length.
  it('completes 50 trials with correct results when every third request is a 429 with retry-after-ms: 20', async () => {
    const retryAfterMs = 20;
    const { fake, model, limiter } = await setup({ script: everyThird({ status: 429, retryAfterMs }) });
    const run = await runInProcess({ files: suite(10, 5), config: { targets: { agent: { model } }, concurrency: 8 } });
    const { results, exitCode } = run;

    expect(exitCode).toBe(0);
    expect(results.summary.trials).toMatchObject({ planned: 50, run: 50, notRun: 0, passed: 50 });
    for (const c of results.cases) for (const t of c.trials) expect(t.reply).toBe(`pong ${c.id.slice(1)}`);
    const rateLimited = fake.requests.length - 50;
    expect(rateLimited).toBeGreaterThanOrEqual(Math.floor(fake.requests.length / 3));
    expect(limiter(run).rateLimits).toBe(rateLimited);
    // The shared limiter backed off: the run slowed down instead of failing.
    expect(limiter(run).current).toBeLessThan(limiter(run).max);
    // ...and waited out the retry-after: on the server's clock the last 429's retry arrived no sooner
    // than retry-after after that 429 was sent (1 ms of slack for the limiter's millisecond clock).
    const lastLimited = fake.requests.filter((_, i) => i % 3 === 2).at(-1)!;
    const lastArrival = Math.max(...fake.requests.map((r) => r.receivedAt));
    expect(lastArrival - lastLimited.answeredAt!).toBeGreaterThanOrEqual(retryAfterMs - 1);
    // Failed attempts bill nothing: exactly one call per trial is counted.
    expect(results.summary.usage.target).toMatchObject({ calls: 50, inputTokens: 500, outputTokens: 100 });
  }, 90_000);

  it('does the same with retry-after-ms and a tool loop of two calls per trial', async () => {
    const script = (body: any, index: number): Scripted => {
      if (index % 3 === 2) return { status: 429, retryAfterMs: 20 };
      const last = body.messages.at(-1);
      if (last.role === 'tool') return { text: String(last.content), usage: { input: 10, output: 2 } };
      return { toolCalls: [{ name: 'echo', args: { text: String(last.content).replace('ping', 'pong') } }], usage: { input: 10, output: 2 } };
    };
    const { model } = await setup({ script });
    const echo = tool({ name: 'echo', parameters: z.object({ text: z.string() }), execute: ({ text }) => text });
    const { results, exitCode } = await runInProcess({ files: suite(10, 5), config: { targets: { agent: { model, tools: [echo] } }, concurrency: 8 } });
    expect(exitCode).toBe(0);
    expect(results.summary.trials).toMatchObject({ run: 50, passed: 50 });
    for (const c of results.cases) for (const t of c.trials) expect(t.reply).toBe(`pong ${c.id.slice(1)}`);
    expect(results.summary.usage.target).toMatchObject({ calls: 100, inputTokens: 1000, outputTokens: 200 });
  });

  // 40 requests in a row answered 429 without retry-after: more than any attempt count would allow
  // one request. The wait budget bounds them instead, so every trial still passes (the backoff, 1 ms
  // doubling to 8 ms, only sets how long that takes).
  it('passes 60 trials through 40 consecutive 429s without retry-after', async () => {
    const { fake, model, limiter } = await setup({ script: (body, index) => (index < 40 ? { status: 429 } : pong(body)) }, { rateLimitBackoffMs: 1 });
    const run = await runInProcess({ files: suite(12, 5), config: { targets: { agent: { model } }, concurrency: 8 } });
    const { results, exitCode } = run;
    expect(results.summary.trials).toMatchObject({ planned: 60, run: 60, passed: 60 });
    expect(exitCode).toBe(0);
    expect(fake.requests.length).toBe(100);
    expect(limiter(run).rateLimits).toBe(40);
  }, 60_000);

  // The case allows 2 s; the endpoint holds its one request back 12 times for 250 ms (3 s in all)
  // first. Waiting behind the rate limit is not the trial being slow. The clock is faked (setTimeout
  // and Date: the trial's deadline, the limiter's pause and its wake-up) and moves only while the
  // request waits behind the pause, one wake-up at a time: the calls themselves take no time on it,
  // so the verdict does not depend on how fast the machine answers them.
  it('does not count time queued behind a rate-limit pause against the trial timeout', async () => {
    const { fake, model } = await setup({ script: (body, index) => (index < 12 ? { status: 429, retryAfterMs: 250 } : { text: 'pong 0', usage: { input: 10, output: 2 } }) });
    const files = { 'evals/slow.eval.yaml': 'suite: slow\ntarget: agent\ncases:\n  - id: q0\n    input: ping 0\n    timeoutMs: 2000\n    assert:\n      - { type: equals, value: pong 0 }\n' };
    const key = limiterKeyFor(model, { OPENAI_API_KEY: 'x' });
    let limiters: ProviderLimiters | undefined;
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    try {
      const startedAt = Date.now();
      let done = false;
      const running = runInProcess({
        files,
        config: { targets: { agent: { model } } },
        // The run hands its limiters to its judge service: the test watches the endpoint's through it.
        judges: (_settings, deps) => {
          limiters = deps.limiters;
          return noJudgeService;
        },
      }).finally(() => (done = true));
      while (!done) {
        const limiter = limiters?.get(key);
        // Nothing in flight and a request queued: it waits out the pause (its deadline paused).
        if (limiter && limiter.inFlight === 0 && limiter.pending > 0) {
          await vi.advanceTimersToNextTimerAsync();
        } else await new Promise((resolve) => setImmediate(resolve));
      }
      const { results, exitCode } = await running;
      expect(results.cases[0]!.trials[0]).toMatchObject({ verdict: 'passed', reply: 'pong 0' });
      expect(exitCode).toBe(0);
      expect(fake.requests.length).toBe(13);
      // The retries waited out their pauses on the faked clock: 12 × 250 ms or more, past the 2 s.
      expect(Date.now() - startedAt).toBeGreaterThanOrEqual(12 * 250);
    } finally {
      vi.useRealTimers();
    }
  });

  it('fails fast on a 401, naming the environment variable, without retrying', async () => {
    const { fake, model } = await setup({ apiKey: 'sk-the-right-key-123456', script: pong });
    const { results, exitCode } = await runInProcess({ files: suite(2, 1), config: { targets: { agent: { model } } } });
    expect(exitCode).toBe(1);
    for (const c of results.cases) {
      expect(c.trials[0]!.error).toBe('target agent: authentication failed for openai: check OPENAI_API_KEY');
    }
    expect(fake.requests.length).toBe(2); // one per trial: no retries
    expect(JSON.stringify(results)).not.toContain('sk-test-dummy-key');
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
