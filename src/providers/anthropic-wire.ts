/** Pure mapping between our request/response shapes and the Anthropic Messages API. */
import type Anthropic from '@anthropic-ai/sdk';
import type { TokenUsage } from '../core/usage.js';
import { malformed } from './errors.js';
import { modelFamily } from './model-family.js';
import { worthCaching } from './anthropic-cache.js';
import type { ChatMessage, CompletionRequest, CompletionResponse, ProviderToolCall } from './types.js';

type Params = Anthropic.MessageCreateParamsNonStreaming;
type WireMessage = Anthropic.MessageParam;
type Block = Anthropic.ContentBlockParam;

export interface AnthropicDefaults {
  temperature?: number;
  maxTokens: number;
}

/**
 * Sampling parameters are deprecated on Claude: models from Opus 4.7 on answer 400 to any
 * temperature. Only the older families known to take it get one; any other model gets its default.
 */
const TAKES_TEMPERATURE = new Set(['claude-opus-4', 'claude-opus-4-1', 'claude-opus-4-5', 'claude-opus-4-6', 'claude-sonnet-4', 'claude-sonnet-4-5', 'claude-sonnet-4-6', 'claude-haiku-4-5']);

export function acceptsTemperature(model: string): boolean {
  const family = modelFamily(model);
  return TAKES_TEMPERATURE.has(family) || family.startsWith('claude-3');
}

/**
 * Structured output is a forced call of a tool named after the schema; the reply text is then the
 * JSON of that call's input. (Any user tools stay declared but cannot be chosen on that turn.)
 */
export function toAnthropicParams(model: string, req: CompletionRequest, defaults: AnthropicDefaults): Params {
  const tools: Anthropic.Tool[] = (req.tools ?? []).map((t) => ({
    name: t.name,
    ...(t.description !== undefined ? { description: t.description } : {}),
    input_schema: t.parameters as Anthropic.Tool.InputSchema,
  }));
  let toolChoice: Params['tool_choice'];
  if (req.schema) {
    tools.push({
      name: req.schema.name,
      description: 'Reply by calling this tool with your answer as its input.',
      input_schema: req.schema.jsonSchema as Anthropic.Tool.InputSchema,
    });
    toolChoice = { type: 'tool', name: req.schema.name };
  } else if (req.toolChoice !== undefined) {
    toolChoice = typeof req.toolChoice === 'string' ? { type: req.toolChoice } : { type: 'tool', name: req.toolChoice.name };
  }
  const { system, messages } = toAnthropicMessages(req, cacheMark(model, req, tools));
  const temperature = req.temperature ?? defaults.temperature;
  // Keys in the order the prompt is read (tools, system, messages): requests that share a prompt
  // prefix share their body's first bytes too.
  return {
    model,
    max_tokens: req.maxTokens ?? defaults.maxTokens,
    // SDK 1.x dropped temperature from its types; the API still takes it on these models (range 0..1).
    ...(temperature !== undefined && acceptsTemperature(model) ? { temperature: Math.min(1, temperature) } : {}),
    ...(tools.length > 0 ? { tools } : {}),
    ...(toolChoice ? { tool_choice: toolChoice } : {}),
    ...(system ? { system } : {}),
    messages,
  };
}

/**
 * The user message whose stable prefix gets a `cache_control` mark: the last one that has a
 * `stablePrefix`, when everything the prefix cache would hold (tools, system, the messages before
 * it, its stable part) is long enough for the model's family to cache. Anthropic caches only on
 * request; one mark is enough (a later lookup finds the prefix again).
 */
function cacheMark(model: string, req: CompletionRequest, tools: Anthropic.Tool[]): ChatMessage | undefined {
  const at = req.messages.findLastIndex((m) => m.role === 'user' && m.stablePrefix !== undefined && m.stablePrefix > 0 && m.stablePrefix < m.content.length);
  const marked = req.messages[at];
  if (!marked || marked.role !== 'user') return undefined;
  const before = req.messages.slice(0, at).reduce((n, m) => n + m.content.length, 0);
  const chars = (req.system?.length ?? 0) + (tools.length ? JSON.stringify(tools).length : 0) + before + marked.stablePrefix!;
  return worthCaching(model, chars) ? marked : undefined;
}

/**
 * System text goes to the top-level `system`. Consecutive tool results become ONE user message of
 * `tool_result` blocks (the API requires every result of a turn in the next user message), and a
 * user text right after them joins that same message.
 */
export function toAnthropicMessages(
  req: Pick<CompletionRequest, 'system' | 'messages'>,
  cacheMarked?: ChatMessage,
): {
  system: string | undefined;
  messages: WireMessage[];
} {
  const systemParts = req.system ? [req.system] : [];
  const out: { role: 'user' | 'assistant'; content: Block[] }[] = [];
  const push = (role: 'user' | 'assistant', blocks: Block[]) => {
    const last = out[out.length - 1];
    if (last && last.role === role) last.content.push(...blocks);
    else out.push({ role, content: blocks });
  };
  for (const m of req.messages) {
    const blocks = m === cacheMarked && m.role === 'user' ? markedBlocks(m.content, m.stablePrefix!) : toBlocks(m);
    if (m.role === 'system') systemParts.push(m.content);
    else if (blocks.length > 0) push(m.role === 'assistant' ? 'assistant' : 'user', blocks);
  }
  const messages: WireMessage[] = out.map((m) => {
    // A lone text block is sent as a plain string, the API's simplest form.
    const only = m.content.length === 1 ? m.content[0] : undefined;
    return { role: m.role, content: only && only.type === 'text' ? only.text : m.content };
  });
  return { system: systemParts.length > 0 ? systemParts.join('\n\n') : undefined, messages };
}

/** A user text cut where its stable prefix ends, the prefix marked for the prompt cache. */
function markedBlocks(text: string, stablePrefix: number): Block[] {
  return [
    { type: 'text', text: text.slice(0, stablePrefix), cache_control: { type: 'ephemeral' } },
    { type: 'text', text: text.slice(stablePrefix) },
  ];
}

function toBlocks(m: ChatMessage): Block[] {
  switch (m.role) {
    case 'system':
      return [];
    case 'user':
      return [{ type: 'text', text: m.content }];
    case 'assistant': {
      const blocks: Block[] = m.content !== '' ? [{ type: 'text', text: m.content }] : [];
      for (const c of m.toolCalls ?? []) blocks.push({ type: 'tool_use', id: c.id, name: c.name, input: asInput(c.args) });
      return blocks;
    }
    case 'tool':
      return [
        {
          type: 'tool_result',
          tool_use_id: m.toolCallId,
          content: m.content,
          ...(m.isError ? { is_error: true } : {}),
        },
      ];
  }
}

/** tool_use input must be an object. */
function asInput(args: unknown): Record<string, unknown> {
  if (args === undefined || args === null) return {};
  if (typeof args === 'object' && !Array.isArray(args)) return args as Record<string, unknown>;
  return { input: args };
}

/** input_tokens counts only uncached input; ours is the whole prompt, with cache reads split out. */
export function fromAnthropicUsage(u: Anthropic.Usage | undefined | null): TokenUsage {
  const cacheRead = u?.cache_read_input_tokens ?? 0;
  const cacheWrite = u?.cache_creation_input_tokens ?? 0;
  const usage: TokenUsage = {
    inputTokens: (u?.input_tokens ?? 0) + cacheRead + cacheWrite,
    outputTokens: u?.output_tokens ?? 0,
    cachedInputTokens: cacheRead,
  };
  // Cache writes cost more than plain input (1.25x for 5 minutes, 2x for an hour): kept apart for pricing.
  if (cacheWrite > 0) usage.cacheWriteTokens = cacheWrite;
  const longWrites = u?.cache_creation?.ephemeral_1h_input_tokens ?? 0;
  if (longWrites > 0) usage.cacheWrite1hTokens = Math.min(longWrites, cacheWrite);
  const thinking = u?.output_tokens_details?.thinking_tokens;
  if (typeof thinking === 'number') usage.reasoningTokens = thinking;
  return usage;
}

const FINISH: Record<string, string> = {
  end_turn: 'stop',
  stop_sequence: 'stop',
  tool_use: 'tool_calls',
  max_tokens: 'length',
  refusal: 'refusal',
};

/** With `schemaName`, the forced tool call is the answer: its input becomes the text. */
export function fromAnthropicMessage(msg: Anthropic.Message, schemaName?: string): CompletionResponse {
  if (!msg || !Array.isArray(msg.content)) throw malformed('anthropic', 'no content array in the message');
  const texts: string[] = [];
  const toolCalls: ProviderToolCall[] = [];
  let structured: unknown;
  let haveStructured = false;
  for (const block of msg.content) {
    if (block.type === 'text') texts.push(block.text);
    else if (block.type === 'tool_use') {
      if (schemaName !== undefined && block.name === schemaName && !haveStructured) {
        structured = block.input;
        haveStructured = true;
      } else toolCalls.push({ id: block.id, name: block.name, args: block.input });
    }
  }
  // Without the forced call the text is returned as it came: the caller (a judge) may still find
  // the JSON in it, and the tokens spent are reported either way.
  const reason = msg.stop_reason ?? 'stop';
  return {
    text: haveStructured ? JSON.stringify(structured) : texts.join(''),
    toolCalls,
    usage: fromAnthropicUsage(msg.usage),
    finishReason: haveStructured && reason === 'tool_use' ? 'stop' : (FINISH[reason] ?? reason),
    model: msg.model,
    raw: JSON.stringify(msg),
  };
}
