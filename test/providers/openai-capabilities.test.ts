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
import { chatToolsRefusal } from '../../src/providers/wires/openai/chat-tools.js';

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
  const toolsAtNone: ModelCapabilities = { ...reasoning, chatTools: 'reasoning-off' };

  it('never go out at a silent effort none on a model that reasons by default: the run refuses that spec before its first call', () => {
    expect(toOpenAIParams('m', withTools, { capabilities: toolsAtNone })).not.toHaveProperty('reasoning_effort');
    expect(chatToolsRefusal(toolsAtNone, undefined)).toMatch(/only at reasoningEffort "none", and the model reasons by default: set `reasoningEffort: 'none'`.*or `api: 'responses'`/);
    expect(toOpenAIParams('m', withTools, { capabilities: toolsAtNone, reasoningEffort: 'none' })).toMatchObject({ reasoning_effort: 'none', temperature: 0 });
    expect(chatToolsRefusal(toolsAtNone, 'none')).toBeUndefined();
  });

  it('go out at effort none on such a model that does not reason unless asked (the same agent), and as asked otherwise', () => {
    const optional: ModelCapabilities = { ...toolsAtNone, thinking: 'optional' };
    expect(toOpenAIParams('m', withTools, { capabilities: optional })).toMatchObject({ reasoning_effort: 'none', temperature: 0 });
    expect(chatToolsRefusal(optional, undefined)).toBeUndefined();
    expect(toOpenAIParams('m', req, { capabilities: toolsAtNone })).not.toHaveProperty('reasoning_effort');
    // Sent as asked (the API's own refusal is what `doctor --live` shows); the run refuses it first.
    expect(toOpenAIParams('m', withTools, { capabilities: toolsAtNone, reasoningEffort: 'high' })).toMatchObject({ reasoning_effort: 'high' });
    expect(chatToolsRefusal(toolsAtNone, 'high')).toBe(
      'function tools are taken only at reasoningEffort "none", not "high": set `api: \'responses\'` in the model spec, or `reasoningEffort: \'none\'`',
    );
  });

  it('on a model that takes them only on the Responses API are refused by the table, not by the request builder', () => {
    const caps: ModelCapabilities = { ...reasoning, chatTools: 'none' };
    expect(toOpenAIParams('m', withTools, { capabilities: caps }).tools).toHaveLength(1);
    expect(chatToolsRefusal(caps, undefined)).toMatch(/^function tools are taken only on the Responses API: set `api: 'responses'`/);
    expect(chatToolsRefusal({ ...caps, chatTools: 'any' }, 'high')).toBeUndefined();
  });
});
