/**
 * Provider limiters belong to a run: made from its settings, capped by its concurrency, and gone
 * with it. Two runs in one process against the same endpoint do not share one, so a run at
 * concurrency 1 does not leave the next run, at 4, stuck at one request at a time.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { limiterKeyFor } from '../../src/providers/create.js';
import { startFakeOpenAI } from '../support/fake-openai.js';
import type { FakeProvider } from '../support/fake-server.js';
import { runInProcess } from '../support/run-in-process.js';

const env = { OPENAI_API_KEY: 'sk-test-dummy-key-000000' };

let fake: FakeProvider | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

/** `n` cases asking for "ping <i>"; the reply must echo the case's own number. */
function suite(n: number): Record<string, string> {
  const cases = Array.from({ length: n }, (_, i) => `  - id: q${i}\n    input: ping ${i}\n    assert:\n      - { type: equals, value: pong ${i} }`);
  return { 'evals/ping.eval.yaml': `suite: ping\ntarget: agent\ncases:\n${cases.join('\n')}\n` };
}

describe('provider limiters', () => {
  it('are made per run: a run at concurrency 4 after one at concurrency 1 has requests in flight together', async () => {
    // In-flight requests are counted on the server, in arrival order: when a request arrives, how
    // many earlier requests of the same run are still unanswered. No clock is read.
    let runStart = 0;
    const peak = [0, 0];
    let run = 0;
    // Run B's first request is answered only once a second one arrived, so a limiter stuck at 1
    // shows as a peak of 1 (the hold gives up after 5 s then, so the test fails instead of hanging).
    let held: (() => void) | undefined;
    let holding = false;
    const hold = (index: number): Promise<void> => {
      const unanswered = fake!.requests.slice(runStart, index + 1).filter((r) => r.answeredAt === undefined).length;
      peak[run] = Math.max(peak[run]!, unanswered);
      if (!holding) return Promise.resolve();
      if (held) {
        held();
        return Promise.resolve();
      }
      return new Promise<void>((resolve) => {
        const giveUp = setTimeout(resolve, 5_000);
        held = () => {
          clearTimeout(giveUp);
          resolve();
        };
      });
    };
    fake = await startFakeOpenAI({ hold, script: (body: any) => ({ text: String(body.messages.at(-1).content).replace('ping', 'pong'), usage: { input: 10, output: 2 } }) });
    const model = { provider: 'openai' as const, model: 'gpt-4.1-mini', baseURL: fake.url };
    const key = limiterKeyFor(model, env);

    const a = await runInProcess({ files: suite(3), config: { targets: { agent: { model } }, concurrency: 1 }, env });
    expect(a.exitCode).toBe(0);

    run = 1;
    runStart = fake.count;
    holding = true;
    const b = await runInProcess({ files: suite(4), config: { targets: { agent: { model } }, concurrency: 4 }, env });
    expect(b.exitCode).toBe(0);
    expect(fake.count).toBe(7);

    expect(peak[0]).toBe(1);
    expect(peak[1]).toBeGreaterThan(1);
    // Each run had its own limiter for the endpoint, at its own concurrency.
    expect(a.limiters.get(key)!.max).toBe(1);
    expect(b.limiters.get(key)!.max).toBe(4);
    expect(b.limiters.get(key)).not.toBe(a.limiters.get(key));
  });
});
