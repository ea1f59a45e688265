/**
 * What a target did before its timeout stays with the timeout's error (model-agent and function
 * targets, nested deadlines), and the SDK clients of a function target in a dry run answer with
 * the placeholder without a request (fake servers, real SDKs).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ProviderLimiters } from '../../src/providers/adaptive-limit.js';
import { createProvider, DRY_RUN_REPLY } from '../../src/providers/create.js';
import { modelAgentTarget } from '../../src/targets/model-agent.js';
import { functionTarget } from '../../src/targets/function-target.js';
import { withTargetTimeout } from '../../src/targets/target-timeout.js';
import { withTimeout } from '../../src/core/timeout.js';
import { spentOf, TimeoutError } from '../../src/core/errors.js';
import { modelCallCount } from '../../src/core/agent-run.js';
import type { FakeProvider } from '../support/fake-server.js';
import { ANTHROPIC_KEY, never, startFake, storeTools, trialInput } from './helpers.js';

let fakes: FakeProvider[] = [];
afterEach(async () => {
  await Promise.all(fakes.map((f) => f.close()));
  fakes = [];
  vi.unstubAllEnvs();
});

describe('a trial timeout', () => {
  it("keeps a model-agent target's finished steps on the timeout error itself", async () => {
    // The trial's clock is faked: it runs out when the second model call reaches the server (an event
    // the test controls), however long the first step took on a busy machine.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const { fake, env } = await startFake('openai', (_body, index) => {
      if (index === 0) return { toolCalls: [{ name: 'orders_lookup', args: { orderId: 'A1050' } }], usage: { input: 100, output: 20 } };
      setImmediate(() => vi.advanceTimersByTime(400));
      return { delayMs: 5_000, then: { text: 'too late' } };
    });
    fakes.push(fake);
    const target = modelAgentTarget('agent', {
      provider: createProvider({ provider: 'openai', model: 'gpt-4.1-mini', baseURL: fake.url }, env, { limiters: new ProviderLimiters() }),
      tools: storeTools,
    });
    const err = await withTimeout((signal) => target.run(trialInput('Where is A1050?'), signal), 400, never)
      .catch((e: unknown) => e)
      .finally(() => vi.useRealTimers());
    expect(err).toBeInstanceOf(TimeoutError);
    expect(spentOf(err).run?.steps).toEqual([
      expect.objectContaining({ usage: expect.objectContaining({ inputTokens: 100, outputTokens: 20 }), toolCalls: [expect.objectContaining({ name: 'orders_lookup' })] }),
    ]);
  });

  it("reaches the case's deadline through a target's own timeoutMs (nested deadlines)", async () => {
    const target = withTargetTimeout(
      functionTarget('slow', async (_input, ctx) => {
        ctx.usage({ inputTokens: 5, outputTokens: 1, model: 'openai:gpt-4.1-mini' });
        await new Promise((r) => setTimeout(r, 2_000));
        return 'late';
      }),
      10_000,
    );
    const err = await withTimeout((signal) => target.run(trialInput('x'), signal), 200, never).catch((e: unknown) => e);
    expect((err as TimeoutError).ms).toBe(200);
    expect(spentOf(err).run?.steps).toEqual([{ usage: { inputTokens: 5, outputTokens: 1 }, model: 'openai:gpt-4.1-mini' }]);
  });
});

describe('modelCallCount (what maxSteps bounds)', () => {
  it('counts steps with usage, and each step when no step reports usage', () => {
    expect(modelCallCount({ reply: '', steps: [{ usage: { inputTokens: 1, outputTokens: 1 } }, { toolCalls: [{ name: 't' }] }, { text: 'note' }, { usageUnknown: true }] })).toBe(2);
    expect(modelCallCount({ reply: '', steps: [{ text: 'a' }, { toolCalls: [{ name: 't' }] }] })).toBe(2);
    expect(modelCallCount({ reply: '' })).toBe(0);
  });
});

describe('ctx.openai() / ctx.anthropic() in a dry run', () => {
  it('answer Anthropic Messages, plain and streamed, with the placeholder and zero usage, without a request', async () => {
    const { fake } = await startFake('anthropic', () => ({ text: 'should not be asked' }));
    fakes.push(fake);
    vi.stubEnv('ANTHROPIC_API_KEY', ANTHROPIC_KEY);
    vi.stubEnv('ANTHROPIC_BASE_URL', fake.url);
    const target = functionTarget(
      'claude',
      async (_input, ctx) => {
        const claude = await ctx.anthropic();
        const msg = await claude.messages.create({ model: 'claude-sonnet-4-6', max_tokens: 50, messages: [{ role: 'user', content: 'hi' }] });
        const streamed = await claude.messages.stream({ model: 'claude-sonnet-4-6', max_tokens: 50, messages: [{ role: 'user', content: 'hi' }] }).finalMessage();
        const text = (m: typeof msg) => m.content.map((b) => (b.type === 'text' ? b.text : '')).join('');
        return `${text(msg)} / ${text(streamed)}`;
      },
      { dryRun: true },
    );
    const run = await target.run(trialInput('hi'), never);
    expect(run.reply).toBe(`${DRY_RUN_REPLY} / ${DRY_RUN_REPLY}`);
    expect(run.steps).toEqual([
      { usage: expect.objectContaining({ inputTokens: 0, outputTokens: 0 }), model: 'anthropic:claude-sonnet-4-6' },
      { usage: expect.objectContaining({ inputTokens: 0, outputTokens: 0 }), model: 'anthropic:claude-sonnet-4-6' },
    ]);
    expect(fake.count).toBe(0);
  });

  it('answer the Responses API too', async () => {
    vi.stubEnv('OPENAI_API_KEY', '');
    const target = functionTarget(
      'responder',
      async (_input, ctx) => {
        const openai = await ctx.openai();
        const res = await openai.responses.create({ model: 'gpt-4.1-mini', input: 'hi' });
        return res.output_text;
      },
      { dryRun: true },
    );
    const run = await target.run(trialInput('hi'), never);
    expect(run.reply).toBe(DRY_RUN_REPLY);
    expect(run.steps).toEqual([{ usage: expect.objectContaining({ inputTokens: 0, outputTokens: 0 }), model: 'openai:gpt-4.1-mini' }]);
  });
});
