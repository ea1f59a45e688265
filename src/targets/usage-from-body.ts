import type { TokenUsage } from '../core/usage.js';
import { fromOpenAIUsage } from '../providers/openai-wire.js';
import { fromAnthropicUsage } from '../providers/anthropic-wire.js';
import { wireOf } from '../providers/registry.js';
import type { ProviderId } from '../providers/types.js';

/** One model call's usage as read off a response body, and the model the server says answered. */
export interface BodyUsage {
  usage: TokenUsage;
  model: string | undefined;
}

type Json = Record<string, unknown>;

/**
 * Usage of a JSON response: Chat Completions and Embeddings (`prompt_tokens`), the Responses API
 * (`input_tokens` with details) and Anthropic Messages. Undefined when the body reports none
 * (model lists, token counts), which is then not a call to count.
 */
export function usageFromJson(provider: ProviderId, body: unknown): BodyUsage | undefined {
  if (!isObject(body) || !isObject(body.usage)) return undefined;
  const model = typeof body.model === 'string' ? body.model : undefined;
  return { usage: tokenUsage(provider, body.usage), model };
}

function tokenUsage(provider: ProviderId, u: Json): TokenUsage {
  if (wireOf(provider) === 'anthropic') return fromAnthropicUsage(u as never);
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
export function usageFromEventStream(provider: ProviderId, text: string): BodyUsage | undefined {
  let found: BodyUsage | undefined;
  let anthropicUsage: Json | undefined;
  let model: string | undefined;
  for (const line of text.split('\n')) {
    if (!line.startsWith('data:')) continue;
    const data = line.slice(5).trim();
    if (data === '' || data === '[DONE]') continue;
    let event: Json;
    try {
      event = JSON.parse(data) as Json;
    } catch {
      continue;
    }
    if (!isObject(event)) continue;
    if (wireOf(provider) === 'anthropic') {
      if (event.type === 'message_start' && isObject(event.message)) {
        model = typeof event.message.model === 'string' ? event.message.model : model;
        anthropicUsage = isObject(event.message.usage) ? { ...event.message.usage } : {};
      } else if (event.type === 'message_delta' && isObject(event.usage)) {
        anthropicUsage = { ...anthropicUsage, ...stripNulls(event.usage) };
      }
      continue;
    }
    if (typeof event.model === 'string') model = event.model;
    if (isObject(event.usage)) found = { usage: tokenUsage(provider, event.usage), model };
    else if (event.type === 'response.completed' && isObject(event.response)) found = usageFromJson(provider, event.response);
  }
  if (wireOf(provider) === 'anthropic') return anthropicUsage ? { usage: fromAnthropicUsage(anthropicUsage as never), model } : undefined;
  return found;
}

function stripNulls(o: Json): Json {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== null && v !== undefined));
}

function isObject(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function num(v: unknown): number {
  return typeof v === 'number' && Number.isFinite(v) ? v : 0;
}
