import type { Wire } from '../providers/capabilities.js';
import { isObject, safeParse, type Json } from './json-body.js';
import type { StreamReading } from './usage-from-body.js';

/**
 * The tool calls an agent's model asked for, read off the responses that pass through a recording
 * fetch, and their results, read off the requests that follow: Chat Completions, the Responses API
 * and Anthropic Messages, JSON or streamed. Keyed by wire format, so any provider speaking one of
 * them (an OpenAI-compatible server) is read the same way. Shapes as in the SDKs' own types
 * (`openai` 6.49: ChatCompletionMessageToolCall, ResponseFunctionToolCall, ChatCompletionToolMessageParam,
 * ResponseInputItem.FunctionCallOutput; `@anthropic-ai/sdk` 1.14: ToolUseBlock, ToolResultBlockParam).
 */

/** A tool call as a response asks for it; its `id` joins it with its result in a later request. */
export interface WireToolCall {
  id: string | undefined;
  name: string;
  args: unknown;
}

/** A tool result as a request sends it back to the model. */
export interface WireToolResult {
  id: string;
  result: unknown;
  isError: boolean;
}

/** The tool calls of a JSON response (a Chat Completion, a Response, an Anthropic Message). */
export function toolCallsFromJson(wire: Wire, body: unknown): WireToolCall[] {
  if (!isObject(body)) return [];
  if (wire === 'anthropic') return objects(body.content).flatMap(toolUse);
  if (Array.isArray(body.output)) return objects(body.output).flatMap(responseItemCall);
  const first = objects(body.choices).find((c) => (c.index ?? 0) === 0);
  return isObject(first?.message) ? objects(first.message.tool_calls).flatMap(chatToolCall) : [];
}

/** The tool calls of a streamed response, fed its events in order. */
export function streamToolCalls(wire: Wire): StreamReading<WireToolCall[]> {
  return wire === 'anthropic' ? anthropicStreamCalls() : openaiStreamCalls();
}

/**
 * The tool results a request sends back: Chat Completions `tool` messages, Responses API
 * `function_call_output` / `custom_tool_call_output` input items, Anthropic `tool_result` blocks.
 * A request holds its whole history, so earlier results come again; the caller keeps the first.
 */
export function toolResultsFromRequest(wire: Wire, body: unknown): WireToolResult[] {
  if (!isObject(body)) return [];
  if (wire === 'anthropic') {
    return objects(body.messages)
      .filter((m) => m.role === 'user')
      .flatMap((m) => objects(m.content))
      .flatMap((b) => (b.type === 'tool_result' && typeof b.tool_use_id === 'string' ? [{ id: b.tool_use_id, result: resultValue(b.content), isError: b.is_error === true }] : []));
  }
  const chat = objects(body.messages).flatMap((m) => (m.role === 'tool' && typeof m.tool_call_id === 'string' ? [openaiResult(m.tool_call_id, m.content)] : []));
  const responses = objects(body.input).flatMap((i) =>
    (i.type === 'function_call_output' || i.type === 'custom_tool_call_output') && typeof i.call_id === 'string' ? [openaiResult(i.call_id, i.output)] : [],
  );
  return [...chat, ...responses];
}

function toolUse(block: Json): WireToolCall[] {
  return block.type === 'tool_use' && typeof block.name === 'string' ? [{ id: str(block.id), name: block.name, args: block.input }] : [];
}

function responseItemCall(item: Json): WireToolCall[] {
  if (typeof item.name !== 'string') return [];
  if (item.type === 'function_call') return [{ id: str(item.call_id), name: item.name, args: parseArgs(item.arguments) }];
  if (item.type === 'custom_tool_call') return [{ id: str(item.call_id), name: item.name, args: item.input }];
  return [];
}

function chatToolCall(call: Json): WireToolCall[] {
  if (call.type === 'custom' && isObject(call.custom) && typeof call.custom.name === 'string') return [{ id: str(call.id), name: call.custom.name, args: call.custom.input }];
  if (isObject(call.function) && typeof call.function.name === 'string') return [{ id: str(call.id), name: call.function.name, args: parseArgs(call.function.arguments) }];
  return [];
}

/**
 * Chat Completions chunks carry each call's id and name first, then its arguments in pieces, by
 * the call's `index` (choice 0 only: the one an agent goes on with). The Responses API sends each
 * finished item in `response.output_item.done`, and the whole output again in its last event.
 */
function openaiStreamCalls(): StreamReading<WireToolCall[]> {
  const chat = new Map<number, { id: string | undefined; name: string; args: string }>();
  const items = new Map<string, WireToolCall>();
  const addItem = (item: unknown) => {
    if (!isObject(item)) return;
    for (const call of responseItemCall(item)) {
      const key = call.id ?? `#${items.size}`;
      if (!items.has(key)) items.set(key, call);
    }
  };
  return {
    event(event) {
      if (event.type === 'response.output_item.done') addItem(event.item);
      else if (typeof event.type === 'string' && event.type.startsWith('response.') && isObject(event.response)) objects(event.response.output).forEach(addItem);
      for (const choice of objects(event.choices)) {
        if ((choice.index ?? 0) !== 0 || !isObject(choice.delta)) continue;
        for (const d of objects(choice.delta.tool_calls)) {
          const index = typeof d.index === 'number' ? d.index : chat.size;
          const fn = isObject(d.function) ? d.function : {};
          const call = chat.get(index) ?? { id: undefined, name: '', args: '' };
          if (typeof d.id === 'string') call.id = d.id;
          if (typeof fn.name === 'string') call.name += fn.name;
          if (typeof fn.arguments === 'string') call.args += fn.arguments;
          chat.set(index, call);
        }
      }
    },
    result: () => [
      ...[...chat.entries()]
        .sort(([a], [b]) => a - b)
        .filter(([, c]) => c.name !== '')
        .map(([, c]) => ({ id: c.id, name: c.name, args: parseArgs(c.args) })),
      ...items.values(),
    ],
  };
}

/** Anthropic streams a `tool_use` block's id and name at its start, then its input as JSON pieces. */
function anthropicStreamCalls(): StreamReading<WireToolCall[]> {
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

/** OpenAI's wire has no error flag on a tool result: text starting `Error:` (what our own agents send) or a JSON object with an `error` is one. */
function openaiResult(id: string, content: unknown): WireToolResult {
  const result = resultValue(content);
  const isError = typeof result === 'string' ? /^\s*error\s*:/i.test(result) : isObject(result) && result.error !== undefined && result.error !== null && result.error !== false;
  return { id, result, isError };
}

/** A result's content: its text (parsed when it is a JSON object or array), or the parts as sent when not all text. */
function resultValue(content: unknown): unknown {
  let text: string | undefined;
  if (typeof content === 'string') text = content;
  else if (Array.isArray(content) && content.every((p) => isObject(p) && typeof p.text === 'string')) text = (content as Json[]).map((p) => p.text as string).join('');
  if (text === undefined) return content;
  const parsed = /^\s*[[{]/.test(text) ? safeParse(text) : undefined;
  return typeof parsed === 'object' && parsed !== null ? parsed : text;
}

/** Arguments as the model wrote them: parsed JSON, the raw text when not JSON, `{}` when empty. */
function parseArgs(args: unknown): unknown {
  if (typeof args !== 'string') return args;
  if (args.trim() === '') return {};
  const parsed = safeParse(args);
  return parsed === undefined ? args : parsed;
}

function objects(v: unknown): Json[] {
  return Array.isArray(v) ? v.filter(isObject) : [];
}

function str(v: unknown): string | undefined {
  return typeof v === 'string' && v !== '' ? v : undefined;
}
