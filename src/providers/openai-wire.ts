/** Pure mapping between our request/response shapes and OpenAI Chat Completions. */
import type OpenAI from 'openai';
import type { TokenUsage } from '../core/usage.js';
import { malformed } from './errors.js';
import type { ModelSpec } from './model-spec.js';
import type { ChatMessage, CompletionRequest, CompletionResponse, ProviderToolCall } from './types.js';

type Params = OpenAI.ChatCompletionCreateParamsNonStreaming;
type WireMessage = OpenAI.ChatCompletionMessageParam;

export interface OpenAIDefaults {
  temperature?: number;
  maxTokens?: number;
}

/**
 * Reasoning models (o1/o3/o4 families, gpt-5 except the chat variants) reject any temperature
 * but the default, so it is not sent to them rather than failing every judge call at temperature 0.
 */
export function acceptsTemperature(model: string): boolean {
  if (/^o\d/.test(model)) return false;
  if (/^gpt-5/.test(model) && !/^gpt-5(\.\d+)?-chat/.test(model)) return false;
  return true;
}

/** What a model spec sends for `req`, live or as a batch line: the spec's sampling settings are the defaults. */
export function openAIParams(spec: ModelSpec, req: CompletionRequest): Params {
  return toOpenAIParams(spec.model, req, {
    ...(spec.temperature !== undefined ? { temperature: spec.temperature } : {}),
    ...(spec.maxTokens !== undefined ? { maxTokens: spec.maxTokens } : {}),
  });
}

export function toOpenAIParams(model: string, req: CompletionRequest, defaults: OpenAIDefaults = {}): Params {
  const params: Params = { model, messages: toOpenAIMessages(req) };
  if (req.tools && req.tools.length > 0) {
    params.tools = req.tools.map((t) => ({
      type: 'function',
      function: {
        name: t.name,
        ...(t.description !== undefined ? { description: t.description } : {}),
        parameters: t.parameters,
      },
    }));
  }
  if (req.toolChoice !== undefined) {
    params.tool_choice = typeof req.toolChoice === 'string' ? req.toolChoice : { type: 'function', function: { name: req.toolChoice.name } };
  }
  if (req.schema) {
    params.response_format = {
      type: 'json_schema',
      json_schema: { name: req.schema.name, schema: req.schema.jsonSchema, strict: true },
    };
  }
  const temperature = req.temperature ?? defaults.temperature;
  if (temperature !== undefined && acceptsTemperature(model)) params.temperature = temperature;
  const maxTokens = req.maxTokens ?? defaults.maxTokens;
  // max_tokens is deprecated and refused by reasoning models; max_completion_tokens works for all.
  if (maxTokens !== undefined) params.max_completion_tokens = maxTokens;
  return params;
}

export function toOpenAIMessages(req: Pick<CompletionRequest, 'system' | 'messages'>): WireMessage[] {
  const out: WireMessage[] = [];
  if (req.system) out.push({ role: 'system', content: req.system });
  for (const m of req.messages) out.push(toWireMessage(m));
  return out;
}

function toWireMessage(m: ChatMessage): WireMessage {
  switch (m.role) {
    case 'system':
    case 'user':
      return { role: m.role, content: m.content };
    case 'assistant':
      if (!m.toolCalls || m.toolCalls.length === 0) return { role: 'assistant', content: m.content };
      return {
        role: 'assistant',
        content: m.content === '' ? null : m.content,
        tool_calls: m.toolCalls.map((c) => ({
          id: c.id,
          type: 'function',
          function: { name: c.name, arguments: typeof c.args === 'string' ? c.args : JSON.stringify(c.args ?? {}) },
        })),
      };
    case 'tool':
      // Chat Completions has no error flag on tool results: say it in the content.
      return { role: 'tool', tool_call_id: m.toolCallId, content: m.isError ? `Error: ${m.content}` : m.content };
  }
}

export function fromOpenAIUsage(u: OpenAI.CompletionUsage | undefined | null): TokenUsage {
  return {
    inputTokens: u?.prompt_tokens ?? 0,
    outputTokens: u?.completion_tokens ?? 0,
    cachedInputTokens: u?.prompt_tokens_details?.cached_tokens ?? 0,
    reasoningTokens: u?.completion_tokens_details?.reasoning_tokens ?? 0,
  };
}

const FINISH: Record<string, string> = { content_filter: 'refusal', function_call: 'tool_calls' };

export function fromOpenAICompletion(c: OpenAI.ChatCompletion): CompletionResponse {
  const choice = Array.isArray(c?.choices) ? c.choices[0] : undefined;
  if (!choice || typeof choice.message !== 'object' || choice.message === null) {
    throw malformed('openai', 'no choices[0].message in the completion');
  }
  const msg = choice.message;
  const toolCalls: ProviderToolCall[] = [];
  for (const call of msg.tool_calls ?? []) {
    if (call.type !== 'function') continue;
    toolCalls.push({ id: call.id, name: call.function.name, args: parseArgs(call.function.arguments) });
  }
  const reason = choice.finish_reason ?? 'stop';
  return {
    text: msg.content ?? msg.refusal ?? '',
    toolCalls,
    usage: fromOpenAIUsage(c.usage),
    finishReason: FINISH[reason] ?? reason,
    model: c.model,
    raw: JSON.stringify(c),
  };
}

function parseArgs(raw: string): unknown {
  if (raw.trim() === '') return {};
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}
