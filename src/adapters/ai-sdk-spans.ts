import { parsedValue, toolDefinitionName, type ChatMessage, type MessageToolCall, type ModelCallMessages } from './chat-messages.js';
import { outermostFirst, type SpanRecord } from './otel-spans.js';

/**
 * A model call as the AI SDK's own spans record it (`ai.generateText.doGenerate`, ...):
 * `ai.prompt.messages` (its messages, content as text or parts `{ type: 'text', text }` and
 * `{ type: 'tool-call', toolCallId, toolName, input }`), `ai.response.text`, `ai.response.toolCalls`
 * and `ai.prompt.tools` (each tool as JSON text). (`ai` 6.0 telemetry, read 2026-12-04.)
 */
export function aiSdkMessages(a: Readonly<Record<string, unknown>>): ModelCallMessages | undefined {
  const messages = parsedValue(a['ai.prompt.messages']);
  const text = a['ai.response.text'];
  const calls = parsedValue(a['ai.response.toolCalls']);
  const tools = a['ai.prompt.tools'];
  if (!Array.isArray(messages) && typeof text !== 'string' && !Array.isArray(calls) && !Array.isArray(tools)) return undefined;
  const toolCalls = Array.isArray(calls) ? calls.flatMap(toolCall) : [];
  return {
    input: Array.isArray(messages) ? messages.flatMap(message) : [],
    output: typeof text === 'string' || toolCalls.length > 0 ? [{ role: 'assistant', ...(typeof text === 'string' && text ? { text } : {}), toolCalls }] : [],
    tools: Array.isArray(tools) ? tools.flatMap((t) => toolDefinitionName(t) ?? []) : [],
  };
}

type Part = { type?: unknown; text?: unknown; toolCallId?: unknown; toolName?: unknown; input?: unknown; args?: unknown };

function message(m: unknown): ChatMessage[] {
  if (typeof m !== 'object' || m === null) return [];
  const { role, content } = m as { role?: unknown; content?: unknown };
  if (typeof role !== 'string') return [];
  if (typeof content === 'string') return [{ role, text: content, toolCalls: [] }];
  const parts = Array.isArray(content) ? (content as Part[]) : [];
  const texts = parts.flatMap((p) => (p?.type === 'text' && typeof p.text === 'string' ? [p.text] : []));
  return [{ role, ...(texts.length > 0 ? { text: texts.join('\n') } : {}), toolCalls: parts.filter((p) => p?.type === 'tool-call').flatMap(toolCall) }];
}

function toolCall(c: unknown): MessageToolCall[] {
  if (typeof c !== 'object' || c === null) return [];
  const { toolCallId, toolName, input, args } = c as Part;
  if (typeof toolName !== 'string' || !toolName) return [];
  const value = input ?? args;
  return [{ ...(typeof toolCallId === 'string' && toolCallId ? { id: toolCallId } : {}), name: toolName, ...(value !== undefined ? { args: parsedValue(value) } : {}) }];
}

/** The AI SDK's outermost `ai.prompt` (`{ prompt }` or `{ messages }`): what the whole generation was asked. */
export function aiSdkPrompt(spans: readonly SpanRecord[]): string | undefined {
  for (const s of outermostFirst(spans)) {
    const prompt = parsedValue(s.attributes['ai.prompt']);
    if (typeof prompt !== 'object' || prompt === null) continue;
    const p = prompt as { prompt?: unknown; messages?: unknown };
    if (typeof p.prompt === 'string') return p.prompt;
    const text = (Array.isArray(p.messages) ? p.messages.flatMap(message) : []).findLast((m) => m.role === 'user' && m.text !== undefined)?.text;
    if (text !== undefined) return text;
  }
  return undefined;
}

/** The AI SDK's outermost `ai.response.text` (the whole generation's final text). */
export function aiSdkReply(spans: readonly SpanRecord[]): string | undefined {
  for (const s of outermostFirst(spans)) {
    const text = s.attributes['ai.response.text'];
    if (typeof text === 'string') return text;
  }
  return undefined;
}
