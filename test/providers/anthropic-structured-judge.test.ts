/**
 * An Anthropic judge asks for its structured answer the way its model takes it: claude-sonnet-5-5
 * (which refuses forced tool use) through `output_config.format`, the JSON read from the reply's
 * text; claude-haiku-4-5 through a forced tool, the JSON read from the tool call's input. Both
 * verdicts are computed from the answer, one passing and one failing criterion each. The fake's
 * refusals behind this are shown with direct SDK calls.
 */
import Anthropic from '@anthropic-ai/sdk';
import { afterEach, describe, expect, it } from 'vitest';
import { toOutputSchema } from '../../src/providers/wires/anthropic/anthropic-output-schema.js';
import { judgeService, plannedCase, sampleRun, splitPrompt, trialContext, userText } from '../judges/helpers.js';
import { startFakeAnthropic, type FakeAnthropic } from '../support/fake-anthropic.js';

let fake: FakeAnthropic | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

/**
 * The fake as a judge model: it reads the criterion (`mentions the word "<w>"`) and the graded
 * reply from the prompt, and scores 0.9 when the reply has the word, 0.1 when it has not.
 */
async function judgeModel(): Promise<FakeAnthropic> {
  fake = await startFakeAnthropic({
    script: (body) => {
      const user = userText(body);
      const word = /mentions the word "(\w+)"/.exec(user)?.[1] ?? '';
      const reply = String(splitPrompt(user).block.output);
      const has = reply.toLowerCase().includes(word.toLowerCase());
      return { json: { score: has ? 0.9 : 0.1, reason: has ? `the reply says "${word}"` : `no "${word}" in the reply`, evidence: [] } };
    },
  });
  return fake;
}

const PASSES = { type: 'judge', criteria: 'the reply mentions the word "shipped"' } as const;
const FAILS = { type: 'judge', criteria: 'the reply mentions the word "refund"' } as const;

async function gradeBoth(model: string) {
  const f = await judgeModel();
  const service = judgeService({ judge: { provider: 'anthropic', model, baseURL: f.url } });
  const ctx = () => trialContext(plannedCase(), sampleRun('Order 4711 shipped yesterday.'));
  return { f, pass: (await service.grade(PASSES, ctx())).result, fail: (await service.grade(FAILS, ctx())).result };
}

describe('Anthropic judge structured output, by model', () => {
  it('claude-sonnet-5-5: output_config.format (no tool_choice, no tools), JSON from the text, room for thinking; verdicts right', async () => {
    const { f, pass, fail } = await gradeBoth('claude-sonnet-5-5');
    expect(pass).toMatchObject({ status: 'passed', score: 0.9 });
    expect(fail).toMatchObject({ status: 'failed', score: 0.1 });
    expect(f.count).toBe(2);
    for (const body of f.bodies) {
      expect(body).not.toHaveProperty('tool_choice');
      expect(body).not.toHaveProperty('tools');
      expect(body.output_config.format).toMatchObject({ type: 'json_schema', schema: { type: 'object', additionalProperties: false, required: ['score', 'reason', 'evidence'] } });
      // Thinking counts against max_tokens on a model that thinks by default.
      expect(body.max_tokens).toBe(16_000);
    }
    // Its replies began with a thinking block, which is not part of the answer.
    expect(f.thinking.signatures.size).toBe(2);
  });

  it('claude-haiku-4-5: a forced tool named after the schema, JSON from its input; verdicts right', async () => {
    const { f, pass, fail } = await gradeBoth('claude-haiku-4-5');
    expect(pass).toMatchObject({ status: 'passed', score: 0.9 });
    expect(fail).toMatchObject({ status: 'failed', score: 0.1 });
    for (const body of f.bodies) {
      expect(body).not.toHaveProperty('output_config');
      expect(body.tool_choice).toEqual({ type: 'tool', name: 'rubric_judgment' });
      expect(body.tools.map((t: { name: string }) => t.name)).toEqual(['rubric_judgment']);
      expect(body.max_tokens).toBe(4096);
    }
    expect(f.thinking.signatures.size).toBe(0);
  });

  it('the fake refuses what the real API refuses: a forced tool on claude-sonnet-5-5, a schema outside the output_config subset, output_config on an old model', async () => {
    fake = await startFakeAnthropic({ script: () => ({ text: 'ok' }) });
    const client = new Anthropic({ apiKey: 'test', baseURL: fake.url, maxRetries: 0 });
    const messages: Anthropic.MessageParam[] = [{ role: 'user', content: 'grade this' }];
    const tool: Anthropic.Tool = { name: 'verdict', input_schema: { type: 'object', properties: { score: { type: 'number' } } } };

    const forced = await client.messages.create({ model: 'claude-sonnet-5-5', max_tokens: 100, messages, tools: [tool], tool_choice: { type: 'tool', name: 'verdict' } }).catch((e: unknown) => e);
    expect(forced).toBeInstanceOf(Anthropic.BadRequestError);
    expect(forced).toMatchObject({ status: 400, error: { type: 'error', error: { type: 'invalid_request_error', message: expect.stringContaining('forced tool use') } } });
    // The same forced tool on claude-haiku-4-5 is fine.
    await expect(client.messages.create({ model: 'claude-haiku-4-5', max_tokens: 100, messages, tools: [tool], tool_choice: { type: 'tool', name: 'verdict' } })).resolves.toMatchObject({
      type: 'message',
    });

    const scored = { type: 'object', properties: { score: { type: 'number', minimum: 1, maximum: 10 } }, required: ['score'], additionalProperties: false };
    const raw = await client.messages.create({ model: 'claude-sonnet-5-5', max_tokens: 100, messages, output_config: { format: { type: 'json_schema', schema: scored } } }).catch((e: unknown) => e);
    expect(raw).toBeInstanceOf(Anthropic.BadRequestError);
    expect(raw).toMatchObject({ status: 400, error: { error: { type: 'invalid_request_error', message: "output_config.format.schema: For 'number' type, property 'minimum' is not supported" } } });
    // Fitted as the wire sends it: the bounds move into the description, and the fake accepts it.
    const fitted = toOutputSchema(scored);
    expect(fitted).toEqual({ type: 'object', properties: { score: { type: 'number', description: '(minimum: 1, maximum: 10)' } }, required: ['score'], additionalProperties: false });
    await expect(client.messages.create({ model: 'claude-sonnet-5-5', max_tokens: 100, messages, output_config: { format: { type: 'json_schema', schema: fitted } } })).resolves.toMatchObject({
      type: 'message',
    });
    // A model from before structured outputs refuses output_config.format: those get the forced tool.
    const old = await client.messages
      .create({ model: 'claude-3-5-haiku-20241022', max_tokens: 100, messages, output_config: { format: { type: 'json_schema', schema: fitted } } })
      .catch((e: unknown) => e);
    expect(old).toMatchObject({ status: 400, error: { error: { message: 'output_config.format: structured outputs are not supported on claude-3-5-haiku-20241022' } } });
  });
});
