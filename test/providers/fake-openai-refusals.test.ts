/**
 * The fake OpenAI server refuses what the real API documents as an error, with the real error
 * shape (400 `{error: {message, type: 'invalid_request_error', param, code}}`): a fake that accepted
 * anything would prove nothing about the requests the project sends. Driven by the real SDK.
 */
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeOpenAI, type FakeOpenAI } from '../support/fake-openai.js';

let fake: FakeOpenAI;
let client: OpenAI;
beforeAll(async () => {
  fake = await startFakeOpenAI({ script: () => ({ text: 'ok' }) });
  client = new OpenAI({ baseURL: fake.url, apiKey: 'test-key', maxRetries: 0 });
});
afterAll(() => fake.close());

const messages: OpenAI.ChatCompletionMessageParam[] = [{ role: 'user', content: 'hi' }];
const strict = (schema: Record<string, unknown>): OpenAI.ChatCompletionCreateParamsNonStreaming['response_format'] => ({
  type: 'json_schema',
  json_schema: { name: 'verdict', schema, strict: true },
});

async function refusal(body: OpenAI.ChatCompletionCreateParamsNonStreaming) {
  const err = await client.chat.completions.create(body).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(OpenAI.BadRequestError);
  const e = err as InstanceType<typeof OpenAI.BadRequestError>;
  expect(e.status).toBe(400);
  expect(e.type).toBe('invalid_request_error');
  return { message: (e.error as { message: string }).message, param: e.param, code: e.code };
}

describe('sampling parameters on reasoning models', () => {
  it('refuses temperature on an o-series or GPT-5 model', async () => {
    expect(await refusal({ model: 'o4-mini', messages, temperature: 0 })).toEqual({
      message: "Unsupported value: 'temperature' does not support 0 with this model. Only the default (1) value is supported.",
      param: 'temperature',
      code: 'unsupported_value',
    });
    expect((await refusal({ model: 'gpt-5-mini', messages, top_p: 0.5 })).param).toBe('top_p');
  });

  it('refuses temperature on GPT-6 unless the reasoning effort is none, where the model takes none', async () => {
    expect((await refusal({ model: 'gpt-6.1-terra', messages, temperature: 0 })).param).toBe('temperature');
    expect((await refusal({ model: 'gpt-6.1-terra', messages, temperature: 0, reasoning_effort: 'low' })).param).toBe('temperature');
    await expect(client.chat.completions.create({ model: 'gpt-6.1-terra', messages, temperature: 0, reasoning_effort: 'none' })).resolves.toBeDefined();
  });

  it('takes temperature on a chat model', async () => {
    await expect(client.chat.completions.create({ model: 'gpt-4.1-mini', messages, temperature: 0 })).resolves.toBeDefined();
  });
});

describe('the token parameter', () => {
  it("refuses max_tokens on reasoning models, naming 'max_completion_tokens'", async () => {
    expect(await refusal({ model: 'gpt-5.5', messages, max_tokens: 100 })).toEqual({
      message: "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.",
      param: 'max_tokens',
      code: 'unsupported_parameter',
    });
    await expect(client.chat.completions.create({ model: 'gpt-5.5', messages, max_completion_tokens: 100 })).resolves.toBeDefined();
  });
});

describe('reasoning effort', () => {
  it('refuses a value the model does not take, listing the ones it does', async () => {
    expect(await refusal({ model: 'gpt-6-astra', messages, reasoning_effort: 'none' })).toEqual({
      message: "Unsupported value: 'reasoning_effort' does not support 'none' with this model. Supported values are: 'low', 'medium', 'high', 'xhigh', 'max'.",
      param: 'reasoning_effort',
      code: 'unsupported_value',
    });
    expect((await refusal({ model: 'gpt-4.1-mini', messages, reasoning_effort: 'low' })).code).toBe('unsupported_parameter');
  });
});

describe('function tools on Chat Completions', () => {
  const tools: OpenAI.ChatCompletionFunctionTool[] = [{ type: 'function', function: { name: 'orders_lookup', parameters: { type: 'object', properties: {} } } }];

  it('refuses them on a model that takes them only on the Responses API', async () => {
    expect(await refusal({ model: 'gpt-6-astra', messages, tools })).toEqual({
      message: 'Function tools are not supported for gpt-6-astra in /v1/chat/completions. To use function tools, use /v1/responses.',
      param: 'tools',
      code: null,
    });
  });

  it('takes them on GPT-6 Luna only at reasoning_effort none', async () => {
    expect((await refusal({ model: 'gpt-6-luna', messages, tools })).message).toBe(
      "Function tools with reasoning_effort are not supported for gpt-6-luna in /v1/chat/completions. To use function tools, use /v1/responses or set reasoning_effort to 'none'.",
    );
    await expect(client.chat.completions.create({ model: 'gpt-6-luna', messages, tools, reasoning_effort: 'none' })).resolves.toBeDefined();
  });
});

describe('strict json_schema outside the supported subset', () => {
  const ok = { type: 'object', properties: { score: { type: 'number', minimum: 0 } }, required: ['score'], additionalProperties: false };

  it('accepts a schema inside the subset', async () => {
    await expect(client.chat.completions.create({ model: 'gpt-4.1-mini', messages, response_format: strict(ok) })).resolves.toBeDefined();
  });

  it('refuses a property missing from required', async () => {
    const r = await refusal({ model: 'gpt-4.1-mini', messages, response_format: strict({ ...ok, properties: { ...ok.properties, reason: { type: 'string' } } }) });
    expect(r.param).toBe('response_format');
    expect(r.message).toBe(
      "Invalid schema for response_format 'verdict': In context=(), 'required' is required to be supplied and to be an array including every key in properties. Missing 'reason'.",
    );
  });

  it('refuses an object without additionalProperties: false, at any depth', async () => {
    const nested = { ...ok, properties: { dims: { type: 'object', properties: { a: { type: 'number' } }, required: ['a'] } }, required: ['dims'] };
    expect((await refusal({ model: 'gpt-4.1-mini', messages, response_format: strict(nested) })).message).toBe(
      "Invalid schema for response_format 'verdict': In context=('properties', 'dims'), 'additionalProperties' is required to be supplied and to be false.",
    );
  });

  it('refuses an unsupported keyword', async () => {
    const long = { ...ok, properties: { score: { type: 'string', minLength: 3 } } };
    expect((await refusal({ model: 'gpt-4.1-mini', messages, response_format: strict(long) })).message).toBe(
      "Invalid schema for response_format 'verdict': In context=('properties', 'score'), 'minLength' is not permitted.",
    );
  });
});
