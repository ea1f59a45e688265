import { describe, expect, it } from 'vitest';
import { genAiMessages } from '../../src/adapters/otel-genai.js';

describe('genAiMessages (OpenTelemetry GenAI conventions)', () => {
  it('reads messages of parts (text, tool_call, tool_call_response), system instructions, and tool definitions in both shapes', () => {
    const read = genAiMessages({
      'gen_ai.system_instructions': '[{"type":"text","content":"Be brief."}]',
      'gen_ai.input.messages': JSON.stringify([
        { role: 'user', parts: [{ type: 'text', content: 'Refund A1' }] },
        { role: 'assistant', parts: [{ type: 'tool_call', id: 'c1', name: 'lookup', arguments: { id: 'A1' } }] },
        { role: 'tool', parts: [{ type: 'tool_call_response', id: 'c1', response: '{"ok":true}' }] },
      ]),
      'gen_ai.output.messages': [{ role: 'assistant', finish_reason: 'tool_call', parts: [{ type: 'tool_call', id: 'c2', name: 'refund', arguments: '{"id":"A1"}' }] }],
      'gen_ai.tool.definitions': JSON.stringify([
        { type: 'function', function: { name: 'lookup', parameters: {} } },
        { name: 'refund', description: 'Refund', parameters: {} },
      ]),
    });
    expect(read).toEqual({
      input: [
        { role: 'system', text: 'Be brief.', toolCalls: [] },
        { role: 'user', text: 'Refund A1', toolCalls: [] },
        { role: 'assistant', toolCalls: [{ id: 'c1', name: 'lookup', args: { id: 'A1' } }] },
        { role: 'tool', toolCalls: [], toolCallId: 'c1', toolResult: { ok: true } },
      ],
      output: [{ role: 'assistant', toolCalls: [{ id: 'c2', name: 'refund', args: { id: 'A1' } }] }],
      tools: ['lookup', 'refund'],
    });
  });

  it('reads the older gen_ai.prompt / gen_ai.completion (content as text or text parts), and nothing from a span without them', () => {
    expect(genAiMessages({ 'gen_ai.prompt': '[{"role":"user","content":"hi"}]', 'gen_ai.completion': '[{"content":[{"type":"text","text":"hello"}]}]' })).toEqual({
      input: [{ role: 'user', text: 'hi', toolCalls: [] }],
      output: [{ role: 'assistant', text: 'hello', toolCalls: [] }],
      tools: [],
    });
    expect(genAiMessages({ 'gen_ai.operation.name': 'chat', 'gen_ai.request.model': 'm' })).toBeUndefined();
  });
});
