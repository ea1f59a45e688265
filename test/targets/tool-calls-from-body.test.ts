/**
 * Tool calls read off response bodies and tool results off request bodies, by wire format, and
 * their join by call id: what a recording fetch turns into a trial's tool calls.
 */
import { describe, expect, it } from 'vitest';
import { streamToolCalls, toolCallsFromJson, toolResultsFromRequest } from '../../src/targets/tool-calls-from-body.js';
import { WireToolCalls, withoutReportedCalls } from '../../src/targets/wire-tool-calls.js';
import { forEachEvent } from '../../src/providers/json-body.js';
import type { Wire } from '../../src/providers/capabilities.js';

const sse = (...events: object[]) => events.map((e) => `data: ${JSON.stringify(e)}\n\n`).join('') + 'data: [DONE]\n\n';
function streamed(wire: Wire, text: string) {
  const reading = streamToolCalls(wire);
  forEachEvent(text, (e) => reading.event(e));
  return reading.result();
}

describe('tool calls of a response', () => {
  it('Chat Completions: function and custom tool calls of choice 0, arguments parsed (raw text when not JSON)', () => {
    const body = {
      object: 'chat.completion',
      choices: [
        {
          index: 0,
          message: {
            role: 'assistant',
            content: null,
            tool_calls: [
              { id: 'call_1', type: 'function', function: { name: 'orders_lookup', arguments: '{"orderId":"A1"}' } },
              { id: 'call_2', type: 'function', function: { name: 'ping', arguments: '' } },
              { id: 'call_3', type: 'function', function: { name: 'broken', arguments: '{"a":' } },
              { id: 'call_4', type: 'custom', custom: { name: 'sql', input: 'select 1' } },
            ],
          },
        },
      ],
    };
    expect(toolCallsFromJson('openai', body)).toEqual([
      { id: 'call_1', name: 'orders_lookup', args: { orderId: 'A1' } },
      { id: 'call_2', name: 'ping', args: {} },
      { id: 'call_3', name: 'broken', args: '{"a":' },
      { id: 'call_4', name: 'sql', args: 'select 1' },
    ]);
  });

  it('Chat Completions streamed: each call joined from its pieces by index, calls interleaved', () => {
    const chunk = (tool_calls: object[]) => ({ object: 'chat.completion.chunk', choices: [{ index: 0, delta: { tool_calls }, finish_reason: null }] });
    const text = sse(
      chunk([{ index: 0, id: 'call_a', type: 'function', function: { name: 'orders_lookup', arguments: '' } }]),
      chunk([{ index: 1, id: 'call_b', type: 'function', function: { name: 'refunds_issue', arguments: '{"order' } }]),
      chunk([{ index: 0, function: { arguments: '{"orderId":' } }]),
      chunk([{ index: 1, function: { arguments: 'Id":"B2"}' } }]),
      chunk([{ index: 0, function: { arguments: '"A1"}' } }]),
      { object: 'chat.completion.chunk', choices: [], usage: { prompt_tokens: 1, completion_tokens: 1 } },
    );
    expect(streamed('openai', text)).toEqual([
      { id: 'call_a', name: 'orders_lookup', args: { orderId: 'A1' } },
      { id: 'call_b', name: 'refunds_issue', args: { orderId: 'B2' } },
    ]);
  });

  it('Responses API: function_call items (JSON), and streamed items counted once though the last event repeats them', () => {
    const call = { id: 'fc_1', type: 'function_call', call_id: 'call_x', name: 'orders_lookup', arguments: '{"orderId":"A1"}', status: 'completed' };
    const message = { id: 'msg_1', type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'hi' }] };
    expect(toolCallsFromJson('openai', { object: 'response', output: [message, call] })).toEqual([{ id: 'call_x', name: 'orders_lookup', args: { orderId: 'A1' } }]);
    const text = sse(
      { type: 'response.output_item.added', output_index: 0, item: { ...call, arguments: '' } },
      { type: 'response.function_call_arguments.delta', output_index: 0, delta: '{"orderId":"A1"}' },
      { type: 'response.output_item.done', output_index: 0, item: call },
      { type: 'response.completed', response: { object: 'response', output: [call], usage: { input_tokens: 1, output_tokens: 1 } } },
    );
    expect(streamed('openai', text)).toEqual([{ id: 'call_x', name: 'orders_lookup', args: { orderId: 'A1' } }]);
  });

  it('Anthropic: tool_use blocks (JSON), and streamed input joined from its input_json_delta pieces', () => {
    const body = {
      type: 'message',
      content: [
        { type: 'text', text: 'Looking.' },
        { type: 'tool_use', id: 'toolu_1', name: 'orders_lookup', input: { orderId: 'A1' } },
      ],
    };
    expect(toolCallsFromJson('anthropic', body)).toEqual([{ id: 'toolu_1', name: 'orders_lookup', args: { orderId: 'A1' } }]);
    const text = sse(
      { type: 'message_start', message: { model: 'claude-haiku-4-5', usage: { input_tokens: 1, output_tokens: 1 } } },
      { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
      { type: 'content_block_start', index: 1, content_block: { type: 'tool_use', id: 'toolu_2', name: 'refunds_issue', input: {} } },
      { type: 'content_block_delta', index: 1, delta: { type: 'input_json_delta', partial_json: '{"orderId"' } },
      { type: 'content_block_delta', index: 1, delta: { type: 'input_json_delta', partial_json: ': "B2"}' } },
      { type: 'content_block_start', index: 2, content_block: { type: 'tool_use', id: 'toolu_3', name: 'ping', input: {} } },
      { type: 'message_delta', delta: { stop_reason: 'tool_use' }, usage: { output_tokens: 3 } },
    );
    expect(streamed('anthropic', text)).toEqual([
      { id: 'toolu_2', name: 'refunds_issue', args: { orderId: 'B2' } },
      { id: 'toolu_3', name: 'ping', args: {} },
    ]);
  });
});

describe('tool results of a request', () => {
  it('Chat Completions: tool messages; on a wire without an error flag, an `Error:` text or a JSON `error` is an error', () => {
    const body = {
      messages: [
        { role: 'user', content: 'hi' },
        { role: 'tool', tool_call_id: 'c1', content: '{"status":"delivered"}' },
        { role: 'tool', tool_call_id: 'c2', content: 'Error: order B2 is not delivered yet' },
        { role: 'tool', tool_call_id: 'c3', content: [{ type: 'text', text: '{"error":"not found"}' }] },
        { role: 'tool', tool_call_id: 'c4', content: 'plain text, no error in it' },
      ],
    };
    expect(toolResultsFromRequest('openai', body)).toEqual([
      { id: 'c1', result: { status: 'delivered' }, isError: false },
      { id: 'c2', result: 'Error: order B2 is not delivered yet', isError: true },
      { id: 'c3', result: { error: 'not found' }, isError: true },
      { id: 'c4', result: 'plain text, no error in it', isError: false },
    ]);
  });

  it('Responses API: function_call_output items; Anthropic: tool_result blocks with is_error', () => {
    expect(
      toolResultsFromRequest('openai', {
        input: [
          { type: 'function_call', call_id: 'x' },
          { type: 'function_call_output', call_id: 'x', output: '42' },
        ],
      }),
    ).toEqual([{ id: 'x', result: '42', isError: false }]);
    const anthropic = {
      messages: [
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 't1', content: [{ type: 'text', text: 'ok' }] },
            { type: 'tool_result', tool_use_id: 't2', content: 'order B2 is not delivered yet', is_error: true },
          ],
        },
      ],
    };
    expect(toolResultsFromRequest('anthropic', anthropic)).toEqual([
      { id: 't1', result: 'ok', isError: false },
      { id: 't2', result: 'order B2 is not delivered yet', isError: true },
    ]);
  });
});

describe('WireToolCalls: calls joined with their results by id', () => {
  it('a call id seen again is the same call, a result sent again keeps the first, a result read before its call waits for it', () => {
    const wire = new WireToolCalls();
    wire.answer([{ id: 'b', result: 'early', isError: false }]);
    const [a, b] = wire.add([
      { id: 'a', name: 'orders_lookup', args: { orderId: 'A1' } },
      { id: 'b', name: 'ping', args: {} },
    ]);
    expect(b).toEqual({ name: 'ping', args: {}, result: 'early', isError: false });
    expect(wire.add([{ id: 'a', name: 'orders_lookup', args: { orderId: 'A1' } }])).toEqual([]);
    wire.answer([{ id: 'a', result: { status: 'delivered' }, isError: false }]);
    wire.answer([{ id: 'a', result: 'again', isError: true }]);
    expect(a).toEqual({ name: 'orders_lookup', args: { orderId: 'A1' }, result: { status: 'delivered' }, isError: false });
  });

  it('a call no request answers stays a call without a result', () => {
    const wire = new WireToolCalls();
    expect(wire.add([{ id: 'a', name: 'orders_lookup', args: { orderId: 'A1' } }])).toEqual([{ name: 'orders_lookup', args: { orderId: 'A1' } }]);
  });

  it('a call the target also reported (ctx.tool, an adapter) is kept once: the reported one', () => {
    const wire = new WireToolCalls();
    const [lookup, refund] = wire.add([
      { id: 'a', name: 'orders_lookup', args: { orderId: 'A1' } },
      { id: 'b', name: 'refunds_issue', args: { orderId: 'A1' } },
    ]);
    const usage = { inputTokens: 1, outputTokens: 1 };
    const own = { name: 'orders_lookup', args: { orderId: 'A1' }, result: { status: 'delivered' }, isError: false, durationMs: 3 };
    const steps = [{ usage, toolCalls: [lookup!, refund!] }, { toolCalls: [own] }];
    expect(withoutReportedCalls(steps, [], wire)).toEqual([{ usage, toolCalls: [refund] }, { toolCalls: [own] }]);
    // Returned by an adapter: both calls are the adapter's; the model-call step keeps its usage.
    expect(withoutReportedCalls([{ usage, toolCalls: [lookup!, refund!] }], [{ ...own }, { name: 'refunds_issue', args: { orderId: 'A1' } }], wire)).toEqual([{ usage }]);
  });
});
