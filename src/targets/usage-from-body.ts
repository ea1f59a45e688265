import type { TokenUsage } from '../core/usage.js';
import { fromOpenAIUsage } from '../providers/openai-wire.js';
import { fromAnthropicUsage } from '../providers/anthropic-wire.js';
import type { Wire } from '../providers/capabilities.js';
import { isObject, type Json } from './json-body.js';

/** One model call's usage as read off a response body, and the model the server says answered. */
export interface BodyUsage {
  usage: TokenUsage;
  model: string | undefined;
}

/** What is read off a streamed response, fed its events one by one (one pass over the stream). */
export interface StreamReading<T> {
  event(event: Json): void;
  result(): T;
}

/**
 * Usage of a JSON response: Chat Completions and Embeddings (`prompt_tokens`), the Responses API
 * (`input_tokens` with details) and Anthropic Messages. Undefined when the body reports none
 * (model lists, token counts), which is then not a call to count.
 */
export function usageFromJson(wire: Wire, body: unknown): BodyUsage | undefined {
  if (!isObject(body) || !isObject(body.usage)) return undefined;
  const model = typeof body.model === 'string' ? body.model : undefined;
  return { usage: tokenUsage(wire, body.usage), model };
}

function tokenUsage(wire: Wire, u: Json): TokenUsage {
  if (wire === 'anthropic') return fromAnthropicUsage(u as never);
  if (typeof u.prompt_tokens === 'number') return fromOpenAIUsage(u as never);
  return {
    inputTokens: num(u.input_tokens),
    outputTokens: num(u.output_tokens),
    cachedInputTokens: num(isObject(u.input_tokens_details) ? u.input_tokens_details.cached_tokens : undefined),
    reasoningTokens: num(isObject(u.output_tokens_details) ? u.output_tokens_details.reasoning_tokens : undefined),
  };
}

/**
 * Usage of a streamed (server-sent events) response: OpenAI's final chunk with `usage` (sent when
 * `stream_options.include_usage` is set), `response.completed` of the Responses API, and
 * Anthropic's `message_start` usage updated by `message_delta`.
 */
export function streamUsage(wire: Wire): StreamReading<BodyUsage | undefined> {
  return wire === 'anthropic' ? anthropicStreamUsage() : openaiStreamUsage();
}

function openaiStreamUsage(): StreamReading<BodyUsage | undefined> {
  let found: BodyUsage | undefined;
  let model: string | undefined;
  return {
    event(event) {
      if (typeof event.model === 'string') model = event.model;
      if (isObject(event.usage)) found = { usage: tokenUsage('openai', event.usage), model };
      else if (event.type === 'response.completed' && isObject(event.response)) found = usageFromJson('openai', event.response);
    },
    result: () => found,
  };
}

function anthropicStreamUsage(): StreamReading<BodyUsage | undefined> {
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

function num(v: unknown): number {
  return typeof v === 'number' && Number.isFinite(v) ? v : 0;
}
