/**
 * Raw Anthropic Messages bodies as a recording fetch sees them, JSON or streamed. Shapes as in the
 * SDK's own types (`@anthropic-ai/sdk` 1.14: ToolUseBlock, ToolResultBlockParam, the stream events).
 */
import { isObject, type Json } from '../../json-body.js';
import { nonEmptyString, objects, parseArgs, resultValue, type BodyUsage, type DryRunAnswer, type StreamReading, type WireBodies, type WireToolCall, type WireToolResult } from '../../wire-bodies.js';
import { fromAnthropicUsage } from './anthropic-wire.js';

function usageFromJson(body: Json): BodyUsage | undefined {
  if (!isObject(body.usage)) return undefined;
  return { usage: fromAnthropicUsage(body.usage as never), model: typeof body.model === 'string' ? body.model : undefined };
}

/** `message_start` carries the usage so far, each `message_delta` updates it. */
function streamUsage(): StreamReading<BodyUsage | undefined> {
  let usage: Json | undefined;
  let model: string | undefined;
  return {
    event(event) {
      if (event.type === 'message_start' && isObject(event.message)) {
        model = typeof event.message.model === 'string' ? event.message.model : model;
        usage = isObject(event.message.usage) ? { ...event.message.usage } : {};
      } else if (event.type === 'message_delta' && isObject(event.usage)) {
        usage = { ...usage, ...stripNulls(event.usage) };
      }
    },
    result: () => (usage ? { usage: fromAnthropicUsage(usage as never), model } : undefined),
  };
}

function stripNulls(o: Json): Json {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== null && v !== undefined));
}

function toolUse(block: Json): WireToolCall[] {
  return block.type === 'tool_use' && typeof block.name === 'string' ? [{ id: nonEmptyString(block.id), name: block.name, args: block.input }] : [];
}

/** A `tool_use` block's id and name come at its start, then its input as JSON pieces. */
function streamToolCalls(): StreamReading<WireToolCall[]> {
  const blocks = new Map<number, { call: WireToolCall; json: string }>();
  return {
    event(event) {
      const index = typeof event.index === 'number' ? event.index : -1;
      if (event.type === 'content_block_start' && isObject(event.content_block)) {
        for (const call of toolUse(event.content_block)) blocks.set(index, { call, json: '' });
      } else if (event.type === 'content_block_delta' && isObject(event.delta) && event.delta.type === 'input_json_delta') {
        const block = blocks.get(index);
        if (block && typeof event.delta.partial_json === 'string') block.json += event.delta.partial_json;
      }
    },
    result: () => [...blocks.entries()].sort(([a], [b]) => a - b).map(([, b]) => ({ ...b.call, args: b.json === '' ? b.call.args : parseArgs(b.json) })),
  };
}

/** The `tool_result` blocks of the user messages. */
function toolResultsFromRequest(body: Json): WireToolResult[] {
  return objects(body.messages)
    .filter((m) => m.role === 'user')
    .flatMap((m) => objects(m.content))
    .flatMap((b) => (b.type === 'tool_result' && typeof b.tool_use_id === 'string' ? [{ id: b.tool_use_id, result: resultValue(b.content), isError: b.is_error === true }] : []));
}

function dryRunAnswer(path: string, model: string, stream: boolean, reply: string): DryRunAnswer | undefined {
  if (!path.endsWith('/messages')) return undefined;
  return stream ? { events: messageEvents(model, reply) } : { json: message(model, reply) };
}

function message(model: string, reply: string) {
  return {
    id: 'msg_dry_run',
    type: 'message',
    role: 'assistant',
    model,
    content: [{ type: 'text', text: reply }],
    stop_reason: 'end_turn',
    stop_sequence: null,
    usage: { input_tokens: 0, output_tokens: 0 },
  };
}

function messageEvents(model: string, reply: string) {
  const ev = (type: string, o: object) => ({ event: type, data: { type, ...o } });
  return [
    ev('message_start', { message: { ...message(model, reply), content: [], stop_reason: null } }),
    ev('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }),
    ev('content_block_delta', { index: 0, delta: { type: 'text_delta', text: reply } }),
    ev('content_block_stop', { index: 0 }),
    ev('message_delta', { delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 0 } }),
    ev('message_stop', {}),
  ];
}

export const ANTHROPIC_BODIES: WireBodies = {
  usageFromJson,
  streamUsage,
  toolCallsFromJson: (body) => objects(body.content).flatMap(toolUse),
  streamToolCalls,
  toolResultsFromRequest,
  dryRunAnswer,
};
