/**
 * LangChain / LangGraph messages -> AgentRun. Messages are read by their fields, never through
 * LangChain itself: message class instances, their `toJSON()` form (`{ lc, type: 'constructor',
 * id, kwargs }`), stored messages (`{ type, data }`) and plain `{ role }` / `{ type }` objects
 * all work, so this entry imports nothing of LangChain and fits its versions (read with
 * @langchain/core 0.3 under LangGraph 0.4, and 1.4 under LangGraph 1.7).
 */
import type { AgentRun, Step, ToolCall } from '../core/agent-run.js';
import { modelSpec, tokenUsage } from './token-counts.js';
import { jsonOrText } from './json-text.js';
import { describeValue, wrongInput } from './adapter-input.js';

/** A tool call as an AI message lists it (`tool_calls`), or in OpenAI's wire form (`additional_kwargs.tool_calls`). */
export interface LangChainToolCall {
  id?: string;
  name?: string;
  args?: unknown;
  function?: { name?: string; arguments?: string };
}

/** The fields read from a message; every one is optional so any message shape is accepted. */
export interface LangChainMessage {
  type?: string;
  role?: string;
  _getType?(): string;
  getType?(): string;
  content?: unknown;
  tool_calls?: LangChainToolCall[];
  invalid_tool_calls?: Array<{ id?: string; name?: string; args?: string; error?: string }>;
  additional_kwargs?: { tool_calls?: LangChainToolCall[] };
  tool_call_id?: string;
  status?: string;
  usage_metadata?: {
    input_tokens?: number;
    output_tokens?: number;
    input_token_details?: { cache_read?: number; cache_creation?: number };
    output_token_details?: { reasoning?: number };
  };
  response_metadata?: { model_provider?: string; model_name?: string; model?: string };
  id?: unknown;
  lc?: number;
  kwargs?: LangChainMessage;
  data?: LangChainMessage;
}

export interface FromLangChainOptions {
  /**
   * Where this turn starts in a list that holds earlier turns too (a LangGraph state's `messages`):
   * the number of messages before the turn (`since: history.length`), or the last message before
   * it. Omitted, every message belongs to the run.
   */
  since?: number | LangChainMessage;
  /**
   * The model's provider (`openai`, `anthropic`, ...): the prefix of each step's model for pricing.
   * Omitted, it is read from each AI message's `response_metadata.model_provider`, which
   * @langchain/core 1.x writes and 0.3 (under LangGraph 0.x) does not: there the model has no prefix
   * unless this is given.
   */
  provider?: string;
}

type Kind = 'ai' | 'tool' | 'human' | 'system' | 'other';

const KINDS: Record<string, Kind> = {
  ai: 'ai',
  assistant: 'ai',
  aimessage: 'ai',
  aimessagechunk: 'ai',
  tool: 'tool',
  toolmessage: 'tool',
  toolmessagechunk: 'tool',
  human: 'human',
  user: 'human',
  humanmessage: 'human',
  system: 'system',
  systemmessage: 'system',
};

/** A message's kind and the object holding its fields, whatever its shape. */
function read(m: LangChainMessage): { kind: Kind; f: LangChainMessage } {
  if (m.lc !== undefined && m.type === 'constructor' && Array.isArray(m.id) && m.kwargs) {
    return { kind: kindOf(String(m.id.at(-1))), f: m.kwargs };
  }
  if (typeof m.type === 'string' && m.data && typeof m.data === 'object') return { kind: kindOf(m.type), f: m.data };
  const named = typeof m.getType === 'function' ? m.getType() : typeof m._getType === 'function' ? m._getType() : (m.type ?? m.role);
  return { kind: kindOf(String(named)), f: m };
}

function kindOf(name: string): Kind {
  return KINDS[name.toLowerCase()] ?? 'other';
}

/** The text of a message's content: the string, or its text blocks joined. */
function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((b: unknown) => (typeof b === 'string' ? b : isTextBlock(b) ? b.text : '')).join('');
}

function isTextBlock(b: unknown): b is { type: 'text'; text: string } {
  return typeof b === 'object' && b !== null && (b as { type?: unknown }).type === 'text' && typeof (b as { text?: unknown }).text === 'string';
}

/** A tool message's result: text that is a JSON object or array is parsed, other text stays text. */
function resultOf(content: unknown): unknown {
  const onlyText = typeof content === 'string' || (Array.isArray(content) && content.every((b) => typeof b === 'string' || isTextBlock(b)));
  if (!onlyText) return content;
  const text = textOf(content);
  const t = text.trim();
  if (!(t.startsWith('{') || t.startsWith('['))) return text;
  const value = jsonOrText(t);
  return value === t ? text : value;
}

function argsOf(call: LangChainToolCall): unknown {
  if (call.args !== undefined || !call.function) return call.args;
  return jsonOrText(call.function.arguments ?? '');
}

/** The messages of this turn. */
function turnOf(messages: readonly LangChainMessage[], since: FromLangChainOptions['since']): readonly LangChainMessage[] {
  if (since === undefined) return messages;
  if (typeof since === 'number') {
    if (!Number.isInteger(since) || since < 0 || since > messages.length) {
      throw new RangeError(`fromLangChain: since must be an integer from 0 to ${messages.length} (the number of messages before this turn), got ${since}`);
    }
    return messages.slice(since);
  }
  const sinceId = read(since).f.id;
  const at = messages.findIndex((m) => m === since || (typeof sinceId === 'string' && read(m).f.id === sinceId));
  if (at < 0) throw new RangeError('fromLangChain: the since message is not in the list');
  return messages.slice(at + 1);
}

/**
 * The AgentRun of a LangChain agent's messages: one step per AI message (its text, its tool calls
 * joined with the tool messages that answer them by `tool_call_id`, its usage and model), the
 * reply being the last AI message's text.
 */
export function fromLangChain(messages: readonly LangChainMessage[], options: FromLangChainOptions = {}): AgentRun {
  if (!Array.isArray(messages)) {
    // The graph's state itself is the likeliest mix-up: say which field to pass.
    if (typeof messages === 'object' && messages !== null && Array.isArray((messages as { messages?: unknown }).messages)) {
      throw new TypeError(`fromLangChain: expected a list of messages, got ${describeValue(messages)}: pass its messages (\`fromLangChain(state.messages)\`)`);
    }
    throw wrongInput('fromLangChain', 'a list of messages (the state.messages of graph.invoke)', messages, '`await graph.invoke(…)` and pass its messages');
  }
  const steps: Step[] = [];
  const byId = new Map<string, ToolCall>();
  let reply = '';
  const system = messages.map(read).find((m) => m.kind === 'system');
  for (const m of turnOf(messages, options.since)) {
    const { kind, f } = read(m);
    if (kind === 'tool') {
      const call = typeof f.tool_call_id === 'string' ? byId.get(f.tool_call_id) : undefined;
      if (!call) continue; // answers a call of an earlier turn
      call.result = resultOf(f.content);
      call.isError = f.status === 'error';
      continue;
    }
    if (kind !== 'ai') continue;
    const step: Step = {};
    const text = textOf(f.content);
    if (text) step.text = text;
    reply = text;
    const calls = f.tool_calls ?? f.additional_kwargs?.tool_calls ?? [];
    const toolCalls: ToolCall[] = [];
    for (const c of calls) {
      const name = c.name ?? c.function?.name;
      if (!name) continue;
      const call: ToolCall = { name, args: argsOf(c) };
      toolCalls.push(call);
      if (typeof c.id === 'string') byId.set(c.id, call);
    }
    // Calls whose arguments were not valid JSON: the model asked, the tool never ran.
    for (const c of f.invalid_tool_calls ?? []) {
      if (!c.name) continue;
      const call: ToolCall = { name: c.name, args: c.args, result: c.error ?? 'invalid tool call arguments', isError: true };
      toolCalls.push(call);
      if (typeof c.id === 'string') byId.set(c.id, call);
    }
    if (toolCalls.length > 0) step.toolCalls = toolCalls;
    const u = f.usage_metadata;
    const usage =
      u &&
      tokenUsage({
        input: u.input_tokens,
        output: u.output_tokens,
        cachedInput: u.input_token_details?.cache_read,
        cacheWrite: u.input_token_details?.cache_creation,
        reasoning: u.output_token_details?.reasoning,
      });
    if (usage) step.usage = usage;
    const meta = f.response_metadata;
    const model = meta && modelSpec(options.provider ?? meta.model_provider, meta.model_name ?? meta.model);
    if (model) step.model = model;
    steps.push(step);
  }
  const run: AgentRun = { reply, steps };
  const instructions = system && textOf(system.f.content);
  if (instructions) run.instructions = instructions;
  return run;
}
