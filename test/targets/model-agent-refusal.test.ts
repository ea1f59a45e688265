/**
 * A model-agent target whose model refuses: the trial's trace says so — the run's stop reason is
 * `refusal` and the step that refused carries the refusal's words — on both providers, through
 * the real SDKs and fake servers. A refusal mid-conversation stays on its own step.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ProviderLimiters } from '../../src/providers/adaptive-limit.js';
import { createProvider } from '../../src/providers/create.js';
import { executeTrial } from '../../src/runner/loop/trial.js';
import { modelAgentTarget } from '../../src/targets/model-agent.js';
import type { FakeProvider, Script } from '../support/fake-server.js';
import { judgeService, plannedCase, pricing } from '../judges/helpers.js';
import { startFake, storeTools, type ProviderName } from './helpers.js';

const MODELS: Record<ProviderName, string> = { openai: 'gpt-4.1-mini', anthropic: 'claude-haiku-4-5' };
const REFUSAL = "I can't help with issuing refunds for orders that are not yours.";

let fake: FakeProvider | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

async function trial(provider: ProviderName, script: Script) {
  const started = await startFake(provider, script);
  fake = started.fake;
  const p = createProvider({ provider, model: MODELS[provider], baseURL: started.fake.url }, started.env, { limiters: new ProviderLimiters() });
  const target = modelAgentTarget('store-agent', { provider: p, tools: storeTools, instructions: 'You are a store agent.' });
  return executeTrial(plannedCase({ assertions: [{ type: 'contains', value: 'refunded' }] }), 0, {
    target,
    judges: judgeService({}),
    pricing,
    skipJudgesOnGateFailure: true,
    signal: new AbortController().signal,
  });
}

describe.each(['openai', 'anthropic'] as const)('a model-agent target over %s whose model refuses', (provider) => {
  it('is recorded as a refusal in the trace, after the steps it took', async () => {
    const result = await trial(provider, [{ toolCalls: [{ id: 'c1', name: 'orders_lookup', args: { orderId: 'A1049' } }] }, { text: REFUSAL, finishReason: 'refusal' }]);
    expect(result.trace.stopReason).toBe('refusal');
    expect(result.trace.steps).toHaveLength(2);
    expect(result.trace.steps![0]).not.toHaveProperty('refusal');
    expect(result.trace.steps![1]).toMatchObject({ refusal: REFUSAL });
    expect(result.reply).toBe(REFUSAL);
  });

  it('a reply that finished normally records no refusal', async () => {
    const result = await trial(provider, [{ text: 'Refunded $42.00.' }]);
    expect(result.trace.stopReason).toBe('stop');
    expect(result.trace.steps![0]).not.toHaveProperty('refusal');
  });
});

it('an OpenAI content-filter stop is recorded as a refusal with no words of its own', async () => {
  const result = await trial('openai', [{ text: '', finishReason: 'content_filter' }]);
  expect(result.trace.stopReason).toBe('refusal');
  expect(result.trace.steps![0]).toMatchObject({ refusal: '' });
});
