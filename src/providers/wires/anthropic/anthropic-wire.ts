/** Pure mapping between our request/response shapes and the Anthropic Messages API. */
import type Anthropic from '@anthropic-ai/sdk';
import type { TokenUsage } from '../../../core/usage.js';
import { ProviderConfigError } from '../../../core/errors.js';
import type { ModelCapabilities } from '../../capabilities.js';
import { capabilitiesOf } from '../../capability-lookup.js';
import { malformed } from '../../errors.js';
import { worthCaching } from './anthropic-cache.js';
import { toOutputSchema } from './anthropic-output-schema.js';
import { schemaInstruction } from '../../schema-instruction.js';
import type { ChatMessage, CompletionRequest, CompletionResponse, ProviderBlocks, ProviderToolCall } from '../../types.js';
import { withRawBody } from '../../raw-body.js';
import { toAnthropicMediaBlocks } from './anthropic-parts.js';
import { pushAll } from '../../../core/push-all.js';
import { ANTHROPIC_TABLE } from './facts.js';

type Params = Anthropic.MessageCreateParamsNonStreaming;
type WireMessage = Anthropic.MessageParam;
type Block = Anthropic.ContentBlockParam;
type Effort = NonNullable<Anthropic.OutputConfig['effort']>;

export interface AnthropicOptions {
  maxTokens: number;
  /** What the model accepts (structured-output mode); default: its family's row in the capability table. */
  capabilities?: ModelCapabilities;
  /** The model spec's `reasoningEffort`, sent as `output_config.effort`. */
  effort?: string;
  /** The model's id in the capability table, when the endpoint names it otherwise (Claude on Bedrock and Vertex AI). */
  tableModel?: string;
}

/**
 * The Messages params for `req`. Never a temperature, top_p or top_k: the SDK's API version
 * (2026-10-21) answers 400 to them on every model, and its types have no such fields (Anthropic
 * docs: API versioning and the 2026-10-21 migration guide, read 2026-12-01); `req.temperature` is
 * ignored. A structured answer is asked for the way the model takes it (capabilities.ts):
 * `output_config.format` (the reply's text is the JSON), or a forced call of a tool named after the
 * schema (its input is the answer; user tools stay declared but cannot be chosen on that turn).
 */
export function toAnthropicParams(model: string, req: CompletionRequest, options: AnthropicOptions): Params {
  const caps = options.capabilities ?? capabilitiesOf(ANTHROPIC_TABLE, model);
  const tools: Anthropic.Tool[] = (req.tools ?? []).map((t) => ({
    name: t.name,
    ...(t.description !== undefined ? { description: t.description } : {}),
    input_schema: t.parameters as Anthropic.Tool.InputSchema,
  }));
  let toolChoice: Params['tool_choice'] = req.toolChoice === undefined ? undefined : typeof req.toolChoice === 'string' ? { type: req.toolChoice } : { type: 'tool', name: req.toolChoice.name };
  const outputConfig: Anthropic.OutputConfig = {};
  let systemText = req.system;
  if (req.schema) {
    const mode = caps.structuredOutput;
    if (mode === 'forced_tool') {
      tools.push({
        name: req.schema.name,
        description: 'Reply by calling this tool with your answer as its input.',
        input_schema: req.schema.jsonSchema as Anthropic.Tool.InputSchema,
      });
      toolChoice = { type: 'tool', name: req.schema.name };
    } else if (mode === 'text') {
      // A server without structured output: the schema goes in the prompt, the JSON is read from the reply.
      systemText = [systemText, schemaInstruction(req.schema.jsonSchema)].filter(Boolean).join('\n\n');
    } else {
      outputConfig.format = { type: 'json_schema', schema: toOutputSchema(req.schema.jsonSchema) };
    }
  }
  if (options.effort !== undefined) outputConfig.effort = effortOf(options.effort, model, caps);
  const { system, messages } = toAnthropicMessages({ system: systemText, messages: req.messages }, cacheMark(options.tableModel ?? model, req, tools));
  // Keys in the order the prompt is read (tools, system, messages): requests that share a prompt
  // prefix share their body's first bytes too.
  return {
    model,
    max_tokens: req.maxTokens ?? options.maxTokens,
    ...(tools.length > 0 ? { tools } : {}),
    ...(toolChoice ? { tool_choice: toolChoice } : {}),
    ...(system ? { system } : {}),
    messages,
    ...(Object.keys(outputConfig).length > 0 ? { output_config: outputConfig } : {}),
  };
}

const EFFORTS: readonly Effort[] = ['low', 'medium', 'high', 'xhigh', 'max'];

/** The spec's effort as the SDK types it, if the model takes it (its capabilities' `reasoningEfforts`). */
function effortOf(value: string, model: string, caps: ModelCapabilities): Effort {
  const taken = caps.reasoningEfforts ?? [];
  const effort = EFFORTS.find((e) => e === value && taken.includes(e));
  if (effort) return effort;
  const expected = taken.length > 0 ? `expected one of ${taken.join(', ')}` : 'the model takes none (set capabilities.reasoningEfforts for a model the table does not know)';
  throw new ProviderConfigError(`reasoningEffort "${value}" for anthropic:${model}: ${expected}`);
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
    if (last && last.role === role) pushAll(last.content, blocks);
    else out.push({ role, content: blocks });
  };
  for (const m of req.messages) {
    const blocks = m === cacheMarked && m.role === 'user' ? [...markedBlocks(m.content, m.stablePrefix!), ...toAnthropicMediaBlocks(m.attachments)] : toBlocks(m);
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
    case 'user': {
      // The API refuses an empty text block: an input of images alone is sent as its images.
      const media = toAnthropicMediaBlocks(m.attachments);
      return m.content === '' && media.length > 0 ? media : [{ type: 'text', text: m.content }, ...media];
    }
    case 'assistant': {
      if (m.providerBlocks?.wire === ANTHROPIC_TABLE.id) return replayBlocks(m.providerBlocks);
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

/**
 * An assistant turn sent back as it came: its `thinking` blocks (text and signature unchanged),
 * `redacted_thinking` blocks (data unchanged), text and `tool_use` blocks, in their order. A model
 * that thinks refuses a tool loop whose assistant turn lost its thinking block (400 "Expected
 * `thinking` or `redacted_thinking`, but found `tool_use`"), and a block whose content changed
 * (its signature covers it). Anthropic docs: Extended thinking, "Preserving thinking blocks";
 * What's new in Claude Sonnet 5.5 / Opus 5.5, read 2026-12-01.
 */
function replayBlocks(turn: ProviderBlocks): Block[] {
  const out: Block[] = [];
  for (const raw of turn.blocks) {
    if (typeof raw !== 'object' || raw === null) continue;
    const b = raw as Record<string, unknown>;
    if (b.type === 'thinking' && typeof b.thinking === 'string' && typeof b.signature === 'string') out.push({ type: 'thinking', thinking: b.thinking, signature: b.signature });
    else if (b.type === 'redacted_thinking' && typeof b.data === 'string') out.push({ type: 'redacted_thinking', data: b.data });
    else if (b.type === 'text' && typeof b.text === 'string' && b.text !== '') out.push({ type: 'text', text: b.text });
    else if (b.type === 'tool_use' && typeof b.id === 'string' && typeof b.name === 'string') out.push({ type: 'tool_use', id: b.id, name: b.name, input: asInput(b.input) });
  }
  return out;
}

/** The blocks of a reply that its next request must carry as they came: all of them, when it thought. */
const REPLAYED = new Set(['thinking', 'redacted_thinking', 'text', 'tool_use']);

function turnToReplay(content: readonly Anthropic.ContentBlock[]): ProviderBlocks | undefined {
  if (!content.some((b) => b.type === 'thinking' || b.type === 'redacted_thinking')) return undefined;
  return { wire: ANTHROPIC_TABLE.id, blocks: content.filter((b) => REPLAYED.has(b.type)) };
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

/** With `schemaName`, a forced tool call of that name is the answer: its input becomes the text. */
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
  // Without the forced call the text is returned as it came: under `output_config.format` it is the
  // JSON; otherwise the caller (a judge) may still find the JSON in it. Thinking blocks are not part
  // of the text. The tokens spent are reported either way.
  const reason = msg.stop_reason ?? 'stop';
  const replay = turnToReplay(msg.content);
  return withRawBody(
    {
      text: haveStructured ? JSON.stringify(structured) : texts.join(''),
      toolCalls,
      usage: fromAnthropicUsage(msg.usage),
      finishReason: haveStructured && reason === 'tool_use' ? 'stop' : (FINISH[reason] ?? reason),
      model: msg.model,
      ...(replay ? { providerBlocks: replay } : {}),
    },
    msg,
  );
}
