/**
 * The OpenAI request is shaped by what the model accepts (its capabilities), not by its name:
 * sampling parameters, the token parameter's name, reasoning effort, and how a structured answer
 * is asked for. Pure mapping; the fake server's refusals are in fake-openai-refusals.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { ProviderConfigError } from '../../src/core/errors.js';
import type { ModelCapabilities } from '../../src/providers/capabilities.js';
import { checkOpenAISpec, openAIParams, toOpenAIParams } from '../../src/providers/wires/openai/openai-wire.js';
import type { CompletionRequest } from '../../src/providers/types.js';

const base: ModelCapabilities = { sampling: 'any', structuredOutput: 'json_schema', thinking: 'off', tokenParam: 'max_completion_tokens' };
const reasoning: ModelCapabilities = { ...base, sampling: 'reasoning-off', thinking: 'default-on', reasoningEfforts: ['none', 'low', 'medium', 'high'] };
const schema = { name: 'verdict', jsonSchema: { type: 'object', properties: { score: { type: 'number' } }, required: ['score'], additionalProperties: false } };
const req: CompletionRequest = { system: 'Grade.', messages: [{ role: 'user', content: 'x' }], temperature: 0, maxTokens: 300 };

describe('sampling parameters follow the model capabilities', () => {
  it('`any` sends temperature; `none` never does', () => {
    expect(toOpenAIParams('m', req, { capabilities: base }).temperature).toBe(0);
    expect(toOpenAIParams('m', req, { capabilities: { ...base, sampling: 'none' } })).not.toHaveProperty('temperature');
  });

  it('`reasoning-off` sends temperature only when the reasoning effort is `none`', () => {
    expect(toOpenAIParams('m', req, { capabilities: reasoning })).not.toHaveProperty('temperature');
    expect(toOpenAIParams('m', req, { capabilities: reasoning, reasoningEffort: 'low' })).not.toHaveProperty('temperature');
    const off = toOpenAIParams('m', req, { capabilities: reasoning, reasoningEffort: 'none' });
    expect(off).toMatchObject({ temperature: 0, reasoning_effort: 'none' });
  });
});

describe('the token limit goes under the parameter the model takes', () => {
  it('max_completion_tokens by default, max_tokens for servers that know only it', () => {
    const modern = toOpenAIParams('m', req, { capabilities: base });
    expect(modern.max_completion_tokens).toBe(300);
    expect(modern).not.toHaveProperty('max_tokens');
    const legacy = toOpenAIParams('m', req, { capabilities: { ...base, tokenParam: 'max_tokens' } });
    expect(legacy.max_tokens).toBe(300);
    expect(legacy).not.toHaveProperty('max_completion_tokens');
  });
});

describe('a structured answer', () => {
  it('is a strict json_schema response format where the server enforces schemas', () => {
    const params = toOpenAIParams('m', { ...req, schema }, { capabilities: base });
    expect(params.response_format).toEqual({ type: 'json_schema', json_schema: { name: 'verdict', schema: schema.jsonSchema, strict: true } });
    expect(params.messages[0]).toEqual({ role: 'system', content: 'Grade.' });
  });

  it('is the schema stated in the system prompt, with no response_format, in `text` mode', () => {
    const params = toOpenAIParams('m', { ...req, schema }, { capabilities: { ...base, structuredOutput: 'text' } });
    expect(params).not.toHaveProperty('response_format');
    expect(params.messages[0]).toEqual({ role: 'system', content: `Grade.\n\nRespond with only a JSON object that matches this JSON Schema:\n${JSON.stringify(schema.jsonSchema)}` });
  });
});

describe('reasoning effort from the model spec', () => {
  const spec = { provider: 'openai' as const, model: 'house-model', capabilities: reasoning };

  it('is sent as reasoning_effort when the model takes it', () => {
    expect(openAIParams({ ...spec, reasoningEffort: 'high' }, req).reasoning_effort).toBe('high');
    expect(openAIParams(spec, req)).not.toHaveProperty('reasoning_effort');
  });

  it('is a configuration error naming the model and the values it takes when it does not', () => {
    expect(() => checkOpenAISpec({ ...spec, reasoningEffort: 'xhigh' })).toThrow(ProviderConfigError);
    expect(() => checkOpenAISpec({ ...spec, reasoningEffort: 'xhigh' })).toThrow('openai:house-model: reasoningEffort "xhigh" is not one the model takes: none, low, medium, high');
    expect(() => openAIParams({ ...spec, reasoningEffort: 'xhigh' }, req)).toThrow(ProviderConfigError);
  });

  it('is a configuration error on a model that takes none at all', () => {
    expect(() => checkOpenAISpec({ provider: 'openai', model: 'house-chat', capabilities: base, reasoningEffort: 'low' })).toThrow(
      'openai:house-chat: reasoningEffort "low": the model takes no reasoning effort',
    );
  });
});

describe('function tools on Chat Completions', () => {
  const tools = [{ name: 'orders_lookup', parameters: { type: 'object', properties: {} } }];
  const withTools: CompletionRequest = { ...req, tools, toolChoice: 'auto' };

  it('go out at reasoning effort none on a model that takes them only with reasoning off', () => {
    const caps: ModelCapabilities = { ...reasoning, chatTools: 'reasoning-off' };
    expect(toOpenAIParams('m', withTools, { capabilities: caps })).toMatchObject({ reasoning_effort: 'none', temperature: 0 });
    expect(toOpenAIParams('m', req, { capabilities: caps })).not.toHaveProperty('reasoning_effort');
    expect(() => toOpenAIParams('m', withTools, { capabilities: caps, reasoningEffort: 'high' })).toThrow(
      'model m takes function tools on Chat Completions only at reasoningEffort "none", not "high"',
    );
  });

  it('are a configuration error on a model that takes them only on the Responses API', () => {
    const caps: ModelCapabilities = { ...reasoning, chatTools: 'none' };
    expect(() => toOpenAIParams('m', withTools, { capabilities: caps })).toThrow(ProviderConfigError);
    expect(() => toOpenAIParams('m', withTools, { capabilities: caps })).toThrow('model m takes function tools only on the Responses API');
    expect(toOpenAIParams('m', req, { capabilities: caps }).messages).toHaveLength(2);
  });
});
