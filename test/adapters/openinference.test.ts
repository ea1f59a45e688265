import { describe, expect, it } from 'vitest';
import { openInferenceMessages } from '../../src/adapters/openinference.js';
import { stepsFromSpans } from '../../src/adapters/otel-spans.js';

describe('openInferenceMessages (OpenInference llm.input_messages / llm.output_messages)', () => {
  it('reads roles, content and content parts, tool calls, tool results and llm.tools', () => {
    const read = openInferenceMessages({
      'openinference.span.kind': 'LLM',
      'llm.input_messages.0.message.role': 'user',
      'llm.input_messages.0.message.contents.0.message_content.type': 'text',
      'llm.input_messages.0.message.contents.0.message_content.text': 'Refund A1',
      'llm.input_messages.1.message.role': 'assistant',
      'llm.input_messages.1.message.tool_calls.0.tool_call.id': 'c1',
      'llm.input_messages.1.message.tool_calls.0.tool_call.function.name': 'lookup',
      'llm.input_messages.1.message.tool_calls.0.tool_call.function.arguments': '{"id":"A1"}',
      'llm.input_messages.2.message.role': 'tool',
      'llm.input_messages.2.message.tool_call_id': 'c1',
      'llm.input_messages.2.message.content': '{"ok":true}',
      'llm.output_messages.0.message.role': 'assistant',
      'llm.output_messages.0.message.content': 'Refunded.',
      'llm.tools.0.tool.json_schema': '{"type":"function","function":{"name":"lookup","parameters":{}}}',
      'llm.tools.1.tool.json_schema': '{"type":"function","function":{"name":"refund","parameters":{}}}',
    });
    expect(read).toEqual({
      input: [
        { role: 'user', text: 'Refund A1', toolCalls: [] },
        { role: 'assistant', toolCalls: [{ id: 'c1', name: 'lookup', args: { id: 'A1' } }] },
        { role: 'tool', toolCalls: [], toolCallId: 'c1', toolResult: { ok: true } },
      ],
      output: [{ role: 'assistant', text: 'Refunded.', toolCalls: [] }],
      tools: ['lookup', 'refund'],
    });
    expect(openInferenceMessages({ 'openinference.span.kind': 'CHAIN', 'input.value': 'x' })).toBeUndefined();
  });

  it('makes LLM spans model calls (llm.token_count.*, llm.model_name) and TOOL spans tool calls (tool.name, input.value, output.value)', () => {
    const steps = stepsFromSpans([
      {
        spanId: 'l',
        name: 'OpenAI Chat Completions',
        startMs: 0,
        endMs: 5,
        status: 'ok',
        attributes: {
          'openinference.span.kind': 'LLM',
          'llm.provider': 'openai',
          'llm.model_name': 'gpt-4o-mini',
          'llm.token_count.prompt': 40,
          'llm.token_count.completion': 8,
          'llm.token_count.prompt_details.cache_read': 32,
          'llm.token_count.completion_details.reasoning': 3,
        },
      },
      {
        spanId: 't',
        name: 'lookup',
        startMs: 6,
        endMs: 9,
        status: 'ok',
        attributes: { 'openinference.span.kind': 'TOOL', 'tool.name': 'lookup', 'input.value': '{"id":"A1"}', 'output.value': '{"ok":true}' },
      },
    ]);
    expect(steps).toEqual([
      {
        usage: { inputTokens: 40, outputTokens: 8, cachedInputTokens: 32, reasoningTokens: 3 },
        model: 'openai:gpt-4o-mini',
        toolCalls: [{ name: 'lookup', args: { id: 'A1' }, result: { ok: true }, isError: false, durationMs: 3 }],
      },
    ]);
  });
});
