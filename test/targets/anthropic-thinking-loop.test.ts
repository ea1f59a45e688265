/**
 * A model-agent tool loop on a model that thinks by default (claude-sonnet-5-5): the second request
 * carries the first reply's thinking blocks unchanged (same text and signature, the redacted block's
 * data too), ahead of its tool_use, as the API requires. Direct SDK calls show that the fake refuses
 * the same loop when the block is dropped or edited, so the first test would fail without the carry.
 */
import Anthropic from '@anthropic-ai/sdk';
import { afterEach, describe, expect, it } from 'vitest';
import { ProviderLimiters } from '../../src/providers/adaptive-limit.js';
import { createTarget } from '../../src/targets/create-target.js';
import { startFakeAnthropic, type FakeAnthropic } from '../support/fake-anthropic.js';
import { ANTHROPIC_KEY, never, storeTools, trialInput } from './helpers.js';

let fake: FakeAnthropic | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

const MODEL = 'claude-sonnet-5-5';

async function twoStepLoop(): Promise<FakeAnthropic> {
  fake = await startFakeAnthropic({
    thinking: { text: 'The customer asks about A1001: look it up first.', redacted: true },
    script: [{ toolCalls: [{ id: 'toolu_lookup', name: 'orders_lookup', args: { orderId: 'A1001' } }] }, { text: 'Order A1001 has shipped.' }],
  });
  const target = await createTarget(
    'claude',
    { model: { provider: 'anthropic', model: MODEL, baseURL: fake.url }, instructions: 'You are the store agent.', tools: storeTools },
    { rootDir: '.', configFile: 'evals.config.ts', env: { ANTHROPIC_API_KEY: ANTHROPIC_KEY }, limiters: new ProviderLimiters() },
  );
  const run = await target.run(trialInput('Where is order A1001?'), never);
  expect(run).toMatchObject({ reply: 'Order A1001 has shipped.', stopReason: 'stop' });
  expect(run.steps?.[0]?.toolCalls?.map((c) => c.name)).toEqual(['orders_lookup']);
  return fake;
}

describe('Anthropic tool loop on a thinking model', () => {
  it("the second request carries the first step's thinking blocks unchanged, ahead of its tool_use", async () => {
    const f = await twoStepLoop();
    expect(f.count).toBe(2);
    // What the fake issued with its first reply (its second reply thinks too).
    const [signature, text] = [...f.thinking.signatures][0]!;
    const data = [...f.thinking.redacted][0]!;
    const assistant = f.bodies[1].messages[1];
    expect(assistant.role).toBe('assistant');
    // As the first reply had them: thinking (same text, same signature), redacted thinking, then the call.
    expect(assistant.content).toEqual([
      { type: 'thinking', thinking: text, signature },
      { type: 'redacted_thinking', data },
      { type: 'tool_use', id: 'toolu_lookup', name: 'orders_lookup', input: { orderId: 'A1001' } },
    ]);
    expect(f.bodies[1].messages[2].content[0]).toMatchObject({ type: 'tool_result', tool_use_id: 'toolu_lookup' });
    // Room for thinking in the token limit of a model that thinks by default.
    expect(f.bodies.map((b) => b.max_tokens)).toEqual([16_000, 16_000]);
  });

  it('the fake refuses the same second request with the thinking block dropped, or edited (direct SDK calls)', async () => {
    const f = await twoStepLoop();
    const client = new Anthropic({ apiKey: ANTHROPIC_KEY, baseURL: f.url, maxRetries: 0 });
    const second: Anthropic.MessageCreateParamsNonStreaming = f.bodies[1];
    const withAssistant = (content: Anthropic.ContentBlockParam[]): Anthropic.MessageCreateParamsNonStreaming => ({
      ...second,
      messages: second.messages.map((m, i) => (i === 1 ? { role: 'assistant', content } : m)),
    });
    const blocks = second.messages[1]!.content as Anthropic.ContentBlockParam[];
    const toolUse = blocks.filter((b) => b.type === 'tool_use');
    f.push({ text: 'again' });

    const dropped = await client.messages.create(withAssistant(toolUse)).catch((e: unknown) => e);
    expect(dropped).toBeInstanceOf(Anthropic.BadRequestError);
    expect(dropped).toMatchObject({
      status: 400,
      error: { error: { type: 'invalid_request_error', message: expect.stringContaining('Expected `thinking` or `redacted_thinking`, but found `tool_use`') } },
    });

    const edited = blocks.map((b) => (b.type === 'thinking' ? { ...b, thinking: `${b.thinking} (edited)` } : b));
    const editedErr = await client.messages.create(withAssistant(edited)).catch((e: unknown) => e);
    expect(editedErr).toMatchObject({ status: 400, error: { error: { message: 'messages.1.content.0: Invalid `signature` in `thinking` block' } } });

    // Sent back as it came, it is accepted.
    await expect(client.messages.create(second)).resolves.toMatchObject({ type: 'message', content: expect.arrayContaining([{ type: 'text', text: 'again' }]) });
  });
});
