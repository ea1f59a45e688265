/**
 * The Anthropic request body for each structured-output mode and the effort setting, built as the
 * SDK's type (pure mapping, no server): `output_config.format` with a fitted schema, a forced tool,
 * or the schema in the system prompt for a server without structured output.
 */
import type Anthropic from '@anthropic-ai/sdk';
import { describe, expect, it } from 'vitest';
import { ProviderConfigError } from '../../src/core/errors.js';
import type { ModelCapabilities } from '../../src/providers/capabilities.js';
import { ANTHROPIC_TABLE } from '../../src/providers/wires/anthropic/facts.js';
import { toAnthropicParams } from '../../src/providers/wires/anthropic/anthropic-wire.js';
import type { CompletionRequest } from '../../src/providers/types.js';

const schema = { type: 'object', properties: { score: { type: 'number', minimum: 0, maximum: 1 }, tags: { type: 'array', items: { type: 'string' }, maxItems: 3 } }, required: ['score', 'tags'] };
const req: CompletionRequest = { system: 'You grade.', messages: [{ role: 'user', content: 'grade' }], schema: { name: 'verdict', jsonSchema: schema }, temperature: 0 };
const caps = (structuredOutput: ModelCapabilities['structuredOutput']): ModelCapabilities => ({ ...ANTHROPIC_TABLE.defaultCapabilities, structuredOutput });

describe('toAnthropicParams structured output', () => {
  it('output_config: the schema fitted to the subset (bounds into descriptions, objects closed), no tool', () => {
    const params: Anthropic.MessageCreateParamsNonStreaming = toAnthropicParams('m', req, { maxTokens: 100, capabilities: caps('output_config') });
    expect(params).not.toHaveProperty('tools');
    expect(params).not.toHaveProperty('tool_choice');
    expect(params).not.toHaveProperty('temperature');
    expect(params.output_config).toEqual({
      format: {
        type: 'json_schema',
        schema: {
          type: 'object',
          properties: { score: { type: 'number', description: '(minimum: 0, maximum: 1)' }, tags: { type: 'array', items: { type: 'string' }, description: '(maxItems: 3)' } },
          required: ['score', 'tags'],
          additionalProperties: false,
        },
      },
    });
  });

  it('forced_tool: a tool named after the schema, its schema as given, chosen by name', () => {
    const params = toAnthropicParams('m', req, { maxTokens: 100, capabilities: caps('forced_tool') });
    expect(params.tool_choice).toEqual({ type: 'tool', name: 'verdict' });
    expect(params.tools).toEqual([{ name: 'verdict', description: expect.any(String), input_schema: schema }]);
    expect(params).not.toHaveProperty('output_config');
  });

  it('text: the schema spelled out in the system prompt, nothing structured in the body', () => {
    const params = toAnthropicParams('m', req, { maxTokens: 100, capabilities: caps('text') });
    expect(params.system).toBe(`You grade.\n\nRespond with only a JSON object that matches this JSON Schema:\n${JSON.stringify(schema)}`);
    expect(params).not.toHaveProperty('output_config');
    expect(params).not.toHaveProperty('tool_choice');
  });

  it('reasoningEffort goes to output_config.effort where the model takes it; anything else is a config error', () => {
    const efforts = { ...ANTHROPIC_TABLE.defaultCapabilities, reasoningEfforts: ['low', 'medium', 'high'] };
    expect(toAnthropicParams('m', { messages: req.messages }, { maxTokens: 100, capabilities: efforts, effort: 'low' }).output_config).toEqual({ effort: 'low' });
    expect(() => toAnthropicParams('m', { messages: req.messages }, { maxTokens: 100, capabilities: efforts, effort: 'max' })).toThrow(ProviderConfigError);
    expect(() => toAnthropicParams('m', { messages: req.messages }, { maxTokens: 100, capabilities: efforts, effort: 'max' })).toThrow(
      'reasoningEffort "max" for anthropic:m: expected one of low, medium, high',
    );
    expect(() => toAnthropicParams('claude-haiku-4-5', { messages: req.messages }, { maxTokens: 100, effort: 'low' })).toThrow('the model takes none');
    expect(toAnthropicParams('claude-sonnet-5-5', { messages: req.messages }, { maxTokens: 100, effort: 'xhigh' }).output_config).toEqual({ effort: 'xhigh' });
  });
});
