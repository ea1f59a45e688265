/**
 * Raw OpenAI bodies as a recording fetch sees them: Chat Completions, Embeddings and the Responses
 * API (a client handed to a target may call any of them), JSON or streamed. Shapes as in the SDK's
 * own types (`openai` 6.49: ChatCompletionMessageToolCall, ResponseFunctionToolCall,
 * ChatCompletionToolMessageParam, ResponseInputItem.FunctionCallOutput).
 */
import type { TokenUsage } from '../../../core/usage.js';
import { isObject, type Json } from '../../json-body.js';
import {
  createdNow,
  finiteOrZero,
  nonEmptyString,
  objects,
  parseArgs,
  resultValue,
  type BodyUsage,
  type DryRunAnswer,
  type StreamReading,
  type WireBodies,
  type WireToolCall,
  type WireToolResult,
} from '../../wire-bodies.js';
import { fromOpenAIUsage } from './openai-wire.js';

function usageFromJson(body: Json): BodyUsage | undefined {
  if (!isObject(body.usage)) return undefined;
  return { usage: tokenUsage(body.usage), model: typeof body.model === 'string' ? body.model : undefined };
}

/** Chat Completions and Embeddings count `prompt_tokens`; the Responses API `input_tokens` with details. */
function tokenUsage(u: Json): TokenUsage {
  if (typeof u.prompt_tokens === 'number') return fromOpenAIUsage(u as never);
  return {
    inputTokens: finiteOrZero(u.input_tokens),
    outputTokens: finiteOrZero(u.output_tokens),
    cachedInputTokens: finiteOrZero(isObject(u.input_tokens_details) ? u.input_tokens_details.cached_tokens : undefined),
    reasoningTokens: finiteOrZero(isObject(u.output_tokens_details) ? u.output_tokens_details.reasoning_tokens : undefined),
  };
}

/** The final chunk with `usage` (sent when `stream_options.include_usage` is set), or `response.completed`. */
function streamUsage(): StreamReading<BodyUsage | undefined> {
  let found: BodyUsage | undefined;
  let model: string | undefined;
  return {
    event(event) {
      if (typeof event.model === 'string') model = event.model;
      if (isObject(event.usage)) found = { usage: tokenUsage(event.usage), model };
      else if (event.type === 'response.completed' && isObject(event.response)) found = usageFromJson(event.response);
    },
    result: () => found,
  };
}

function toolCallsFromJson(body: Json): WireToolCall[] {
  if (Array.isArray(body.output)) return objects(body.output).flatMap(responseItemCall);
  const first = objects(body.choices).find((c) => (c.index ?? 0) === 0);
  return isObject(first?.message) ? objects(first.message.tool_calls).flatMap(chatToolCall) : [];
}

function responseItemCall(item: Json): WireToolCall[] {
  if (typeof item.name !== 'string') return [];
  if (item.type === 'function_call') return [{ id: nonEmptyString(item.call_id), name: item.name, args: parseArgs(item.arguments) }];
  if (item.type === 'custom_tool_call') return [{ id: nonEmptyString(item.call_id), name: item.name, args: item.input }];
  return [];
}

function chatToolCall(call: Json): WireToolCall[] {
  if (call.type === 'custom' && isObject(call.custom) && typeof call.custom.name === 'string') return [{ id: nonEmptyString(call.id), name: call.custom.name, args: call.custom.input }];
  if (isObject(call.function) && typeof call.function.name === 'string') return [{ id: nonEmptyString(call.id), name: call.function.name, args: parseArgs(call.function.arguments) }];
  return [];
}

/**
 * Chat Completions chunks carry each call's id and name first, then its arguments in pieces, by
 * the call's `index` (choice 0 only: the one an agent goes on with). The Responses API sends each
 * finished item in `response.output_item.done`, and the whole output again in its last event.
 */
function streamToolCalls(): StreamReading<WireToolCall[]> {
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

/** Chat Completions `tool` messages, Responses API `function_call_output` / `custom_tool_call_output` input items. */
function toolResultsFromRequest(body: Json): WireToolResult[] {
  const chat = objects(body.messages).flatMap((m) => (m.role === 'tool' && typeof m.tool_call_id === 'string' ? [openaiResult(m.tool_call_id, m.content)] : []));
  const responses = objects(body.input).flatMap((i) =>
    (i.type === 'function_call_output' || i.type === 'custom_tool_call_output') && typeof i.call_id === 'string' ? [openaiResult(i.call_id, i.output)] : [],
  );
  return [...chat, ...responses];
}

/** OpenAI's wire has no error flag on a tool result: text starting `Error:` (what our own agents send) or a JSON object with an `error` is one. */
function openaiResult(id: string, content: unknown): WireToolResult {
  const result = resultValue(content);
  const isError = typeof result === 'string' ? /^\s*error\s*:/i.test(result) : isObject(result) && result.error !== undefined && result.error !== null && result.error !== false;
  return { id, result, isError };
}

function dryRunAnswer(path: string, model: string, stream: boolean, reply: string): DryRunAnswer | undefined {
  if (path.endsWith('/chat/completions')) return stream ? { events: chatChunks(model, reply) } : { json: chatCompletion(model, reply) };
  if (path.endsWith('/responses')) return stream ? { events: responseEvents(model, reply) } : { json: response(model, reply) };
  return undefined;
}

const zeroChatUsage = { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 };

function chatCompletion(model: string, reply: string) {
  return {
    id: 'chatcmpl-dry-run',
    object: 'chat.completion',
    created: createdNow(),
    model,
    choices: [{ index: 0, message: { role: 'assistant', content: reply, refusal: null }, logprobs: null, finish_reason: 'stop' }],
    usage: zeroChatUsage,
  };
}

function chatChunks(model: string, reply: string) {
  const chunk = (o: object) => ({ data: { id: 'chatcmpl-dry-run', object: 'chat.completion.chunk', created: createdNow(), model, ...o } });
  return [
    chunk({ choices: [{ index: 0, delta: { role: 'assistant', content: reply }, finish_reason: null }] }),
    chunk({ choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] }),
    chunk({ choices: [], usage: zeroChatUsage }),
    { data: '[DONE]' },
  ];
}

function response(model: string, reply: string) {
  return {
    id: 'resp-dry-run',
    object: 'response',
    created_at: createdNow(),
    status: 'completed',
    model,
    output: [{ type: 'message', id: 'msg-dry-run', status: 'completed', role: 'assistant', content: [{ type: 'output_text', text: reply, annotations: [] }] }],
    usage: { input_tokens: 0, output_tokens: 0, total_tokens: 0, input_tokens_details: { cached_tokens: 0 }, output_tokens_details: { reasoning_tokens: 0 } },
  };
}

function responseEvents(model: string, reply: string) {
  const done = response(model, reply);
  return [
    { event: 'response.output_text.delta', data: { type: 'response.output_text.delta', item_id: 'msg-dry-run', output_index: 0, content_index: 0, delta: reply, sequence_number: 0 } },
    { event: 'response.completed', data: { type: 'response.completed', response: done, sequence_number: 1 } },
  ];
}

export const OPENAI_BODIES: WireBodies = { usageFromJson, streamUsage, toolCallsFromJson, streamToolCalls, toolResultsFromRequest, dryRunAnswer };
