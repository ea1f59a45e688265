import { describe, expect, it } from 'vitest';
import { openLlmetryMessages } from '../../src/adapters/openllmetry.js';

describe('openLlmetryMessages (OpenLLMetry before 0.27: indexed gen_ai.prompt.N / gen_ai.completion.N)', () => {
  it('reads roles, contents, tool calls, tool results, function calls and llm.request.functions', () => {
    const read = openLlmetryMessages({
      'llm.request.type': 'chat',
      'gen_ai.prompt.0.role': 'user',
      'gen_ai.prompt.0.content': 'Refund A1',
      'gen_ai.prompt.1.role': 'assistant',
      'gen_ai.prompt.1.tool_calls.0.id': 'c1',
      'gen_ai.prompt.1.tool_calls.0.name': 'lookup',
      'gen_ai.prompt.1.tool_calls.0.arguments': '{"id":"A1"}',
      'gen_ai.prompt.2.role': 'tool',
      'gen_ai.prompt.2.tool_call_id': 'c1',
      'gen_ai.prompt.2.content': '{"ok":true}',
      'gen_ai.prompt.10.role': 'user',
      'gen_ai.prompt.10.content': '[{"type":"text","text":"And quickly"}]',
      'gen_ai.completion.0.role': 'assistant',
      'gen_ai.completion.0.finish_reason': 'tool_calls',
      'gen_ai.completion.0.tool_calls.0.id': 'c2',
      'gen_ai.completion.0.tool_calls.0.name': 'refund',
      'gen_ai.completion.0.tool_calls.0.arguments': '{"id":"A1"}',
      'gen_ai.completion.0.function_call.name': 'notify',
      'llm.request.functions.0.name': 'lookup',
      'llm.request.functions.1.name': 'refund',
    });
    expect(read).toEqual({
      input: [
        { role: 'user', text: 'Refund A1', toolCalls: [] },
        { role: 'assistant', toolCalls: [{ id: 'c1', name: 'lookup', args: { id: 'A1' } }] },
        { role: 'tool', toolCalls: [], toolCallId: 'c1', toolResult: { ok: true } },
        // Index 10 after 2: indices are numbers, not text.
        { role: 'user', text: 'And quickly', toolCalls: [] },
      ],
      output: [
        {
          role: 'assistant',
          toolCalls: [{ id: 'c2', name: 'refund', args: { id: 'A1' } }, { name: 'notify' }],
        },
      ],
      tools: ['lookup', 'refund'],
    });
    expect(openLlmetryMessages({ 'llm.request.type': 'chat' })).toBeUndefined();
  });
});
