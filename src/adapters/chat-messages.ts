import { jsonOrText } from './json-text.js';

/** A tool call as a model asked for it in one of its messages. */
export interface MessageToolCall {
  id?: string;
  name: string;
  args?: unknown;
}

/**
 * One chat message of a model call, read from whichever convention recorded it: its role, its text,
 * the tool calls it asks for (assistant) or the call it answers (tool).
 */
export interface ChatMessage {
  role: string;
  text?: string;
  toolCalls: MessageToolCall[];
  /** The tool call a tool message answers, and what the tool returned. */
  toolCallId?: string;
  toolResult?: unknown;
}

/** What one model-call span recorded of its conversation: the messages sent, the messages answered, the tools offered. */
export interface ModelCallMessages {
  input: ChatMessage[];
  output: ChatMessage[];
  tools: string[];
}

/** Reads one convention's record of a model call off a span's attributes; undefined when the span holds none of it. */
export type MessagesReader = (attributes: Readonly<Record<string, unknown>>) => ModelCallMessages | undefined;

export const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

/** Span attributes hold JSON as text: parsed when it is JSON, kept as it is otherwise. */
export function parsedValue(v: unknown): unknown {
  return typeof v === 'string' ? jsonOrText(v) : v;
}

/**
 * The name of a tool definition in either shape conventions write: flat `{ name, description,
 * parameters }` (OpenTelemetry GenAI, the AI SDK), or Chat Completions' `{ type: 'function',
 * function: { name, ... } }` (OpenLLMetry, OpenInference's `tool.json_schema`). JSON text is read too.
 */
export function toolDefinitionName(definition: unknown): string | undefined {
  const d = parsedValue(definition);
  if (typeof d !== 'object' || d === null) return undefined;
  const { name, function: fn } = d as { name?: unknown; function?: unknown };
  return str(name) ?? (typeof fn === 'object' && fn !== null ? str((fn as { name?: unknown }).name) : undefined);
}

/** The text of the last user message, the input a run was asked. */
export function lastUserText(messages: readonly ChatMessage[]): string | undefined {
  return messages.findLast((m) => m.role === 'user' && m.text !== undefined)?.text;
}

/** The assistant text of output messages, joined; undefined when they hold none (a turn that only called tools). */
export function assistantText(messages: readonly ChatMessage[]): string | undefined {
  const texts = messages.filter((m) => m.role === 'assistant' && m.text !== undefined).map((m) => m.text!);
  return texts.length > 0 ? texts.join('\n') : undefined;
}

/**
 * Indexed attributes (`prefix.0.role`, `prefix.0.tool_calls.1.name`, ...) as one record per index, in
 * index order, each holding its keys below the index (`role`, `tool_calls.1.name`).
 */
export function indexedAttributes(attributes: Readonly<Record<string, unknown>>, prefix: string): Array<Record<string, unknown>> {
  const byIndex = new Map<number, Record<string, unknown>>();
  const start = `${prefix}.`;
  for (const [key, value] of Object.entries(attributes)) {
    if (!key.startsWith(start)) continue;
    const match = /^(\d+)\.(.+)$/.exec(key.slice(start.length));
    if (!match) continue;
    const index = Number(match[1]);
    const record = byIndex.get(index) ?? {};
    Object.defineProperty(record, match[2]!, { value, enumerable: true, writable: true, configurable: true });
    byIndex.set(index, record);
  }
  return [...byIndex].sort(([a], [b]) => a - b).map(([, record]) => record);
}
