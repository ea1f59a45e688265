/**
 * The Vitest matchers of `agent-evals/vitest`, as a user imports them: `toPassJudge` on a builder
 * adds the judge expectation and runs it (the judge `openai:gpt-4.1-mini` on the fake OpenAI
 * server); on a finished result it reads the run's own verdict. Failures carry the judge's reason.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import 'agent-evals/vitest';
import { evaluate, type AgentRun } from 'agent-evals';
import { startFakeOpenAI } from '../support/fake-openai.js';
import type { FakeProvider } from '../support/fake-server.js';

let judgeServer: FakeProvider;

beforeEach(async () => {
  // The judge approves only the polite reply.
  judgeServer = await startFakeOpenAI({
    script: (body: { messages: Array<{ content: string }> }) =>
      body.messages.some((m) => m.content.includes('Happy to help'))
        ? { json: { score: 0.9, reason: 'Polite and gives the date.', evidence: [] }, usage: { input: 120, output: 20 } }
        : { json: { score: 0.1, reason: 'Dismissive: tells the customer to look it up.', evidence: [] }, usage: { input: 120, output: 20 } },
  });
  vi.stubEnv('OPENAI_BASE_URL', judgeServer.url);
  vi.stubEnv('OPENAI_API_KEY', 'sk-test-judge');
});
afterEach(async () => {
  vi.unstubAllEnvs();
  await judgeServer.close();
});

const polite = (): AgentRun => ({ reply: 'Happy to help: order 42 ships on Monday.', steps: [{ toolCalls: [{ name: 'orders_lookup', args: { orderId: '42' } }] }] });
const rude = (): string => 'Look it up yourself.';
const CRITERIA = 'Answers politely with the shipping date';

describe('agent-evals/vitest matchers', () => {
  it('toPassJudge on a builder adds the judge expectation, runs it and passes for a good agent', async () => {
    await expect(evaluate(polite).input('Where is order 42?').useJudge('openai:gpt-4.1-mini')).toPassJudge(CRITERIA, { threshold: 0.8 });
    expect(judgeServer.count).toBe(1);
    expect(JSON.stringify(judgeServer.bodies[0])).toContain(CRITERIA);
  });

  it("toPassJudge fails for a bad agent with the judge's score and reason", async () => {
    const failure = await expect(evaluate(rude).input('Where is order 42?').useJudge('openai:gpt-4.1-mini'))
      .toPassJudge(CRITERIA, { threshold: 0.8 })
      .then(
        () => undefined,
        (err: unknown) => err,
      );
    expect(failure).toBeInstanceOf(Error);
    expect((failure as Error).message).toContain('Dismissive: tells the customer to look it up.');
    expect((failure as Error).message).toContain('score 0.10 < 0.80');
  });

  it('.not.toPassJudge passes for the bad agent and fails for the good one', async () => {
    await expect(evaluate(rude).input('Where is order 42?').useJudge('openai:gpt-4.1-mini')).not.toPassJudge(CRITERIA);
    await expect(expect(evaluate(polite).input('Where is order 42?').useJudge('openai:gpt-4.1-mini')).not.toPassJudge(CRITERIA)).rejects.toThrow(/expected the eval not to pass, but it passed/);
  });

  it('toPass takes a builder or a finished result', async () => {
    const base = evaluate(polite).input('Where is order 42?').calledTool('orders_lookup', { orderId: '42' });
    await expect(base).toPass();
    const result = await base.useJudge('openai:gpt-4.1-mini').expectJudge(CRITERIA).run();
    await expect(result).toPass();
    await expect(evaluate(rude).input('Where is order 42?').calledTool('orders_lookup')).not.toPass();
    await expect(expect(evaluate(rude).input('Where is order 42?').calledTool('orders_lookup')).toPass()).rejects.toThrow(/calledTool orders_lookup: target "rude" recorded no tool calls/);
  });

  it("toPassJudge on a finished result reads that judge assertion's run and says when it has none", async () => {
    const judged = await evaluate(rude).input('Where is order 42?').useJudge('openai:gpt-4.1-mini').expectJudge(CRITERIA).run();
    await expect(expect(judged).toPassJudge(CRITERIA)).rejects.toThrow(/Dismissive/);
    const unjudged = await evaluate(polite).input('Where is order 42?').calledTool('orders_lookup').run();
    await expect(expect(unjudged).toPassJudge(CRITERIA)).rejects.toThrow(/has no such assertion \(no judge assertion\); give toPassJudge the builder/);
  });

  it('rejects what is neither a builder nor a result', async () => {
    await expect(expect('a reply').toPass()).rejects.toThrow(/takes evaluate\(\.\.\.\) \(a builder\) or the result of its run\(\)/);
  });
});
