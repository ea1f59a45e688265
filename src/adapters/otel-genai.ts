import { parsedValue, str, toolDefinitionName, type ChatMessage, type MessageToolCall, type ModelCallMessages } from './chat-messages.js';

/**
 * A model call as the OpenTelemetry GenAI semantic conventions record it: `gen_ai.input.messages` and
 * `gen_ai.output.messages` (JSON text or structured values: `[{ role, parts: [{ type: 'text', content },
 * { type: 'tool_call', id, name, arguments }, { type: 'tool_call_response', id, response }] }]`),
 * `gen_ai.system_instructions` (parts), and `gen_ai.tool.definitions` in either shape (flat `{ name }`,
 * or Chat Completions' `{ type: 'function', function: { name } }` as OpenLLMetry 0.27 writes it). The
 * older single attributes `gen_ai.prompt` / `gen_ai.completion` (messages with `content` as text or
 * `[{ type: 'text', text }]`) are read too. (OpenTelemetry docs: GenAI attribute registry and the
 * input/output message JSON schemas, read 2026-12-04; `@traceloop/instrumentation-openai` 0.27.0.)
 */
export function genAiMessages(a: Readonly<Record<string, unknown>>): ModelCallMessages | undefined {
  const input = messageList(a['gen_ai.input.messages'] ?? a['gen_ai.prompt'], 'user');
  const output = messageList(a['gen_ai.output.messages'] ?? a['gen_ai.completion'], 'assistant');
  const definitions = parsedValue(a['gen_ai.tool.definitions']);
  if (!input && !output && !Array.isArray(definitions)) return undefined;
  const instructions = parsedValue(a['gen_ai.system_instructions']);
  const system = Array.isArray(instructions) ? partsMessage('system', instructions) : undefined;
  return {
    input: [...(system?.text !== undefined ? [system] : []), ...(input ?? [])],
    output: output ?? [],
    tools: Array.isArray(definitions) ? definitions.flatMap((d) => toolDefinitionName(d) ?? []) : [],
  };
}

type RawMessage = { role?: unknown; parts?: unknown; content?: unknown };

function messageList(v: unknown, defaultRole: string): ChatMessage[] | undefined {
  const value = parsedValue(v);
  if (!Array.isArray(value)) return undefined;
  return value.flatMap((m: unknown): ChatMessage[] => {
    if (typeof m !== 'object' || m === null) return [];
    const raw = m as RawMessage;
    const role = str(raw.role) ?? defaultRole;
    const parts = Array.isArray(raw.parts) ? raw.parts : Array.isArray(raw.content) ? raw.content : undefined;
    if (parts) return [partsMessage(role, parts)];
    return [{ role, ...(typeof raw.content === 'string' ? { text: raw.content } : {}), toolCalls: [] }];
  });
}

type Part = { type?: unknown; content?: unknown; text?: unknown; id?: unknown; name?: unknown; arguments?: unknown; response?: unknown; result?: unknown };

/** A message of parts: its text parts joined, its tool calls, the tool call response it carries. */
function partsMessage(role: string, parts: readonly unknown[]): ChatMessage {
  const texts: string[] = [];
  const toolCalls: MessageToolCall[] = [];
  let answered: { id?: string; result: unknown } | undefined;
  for (const p of parts as Part[]) {
    if (typeof p !== 'object' || p === null) continue;
    if (p.type === 'text') {
      const text = p.content ?? p.text;
      if (typeof text === 'string') texts.push(text);
    } else if (p.type === 'tool_call') {
      const name = str(p.name);
      const id = str(p.id);
      if (name) toolCalls.push({ ...(id ? { id } : {}), name, ...(p.arguments !== undefined ? { args: parsedValue(p.arguments) } : {}) });
    } else if (p.type === 'tool_call_response') {
      const id = str(p.id);
      answered = { ...(id ? { id } : {}), result: parsedValue(p.response ?? p.result) };
    }
  }
  return {
    role,
    ...(texts.length > 0 ? { text: texts.join('\n') } : {}),
    toolCalls,
    ...(answered?.id ? { toolCallId: answered.id } : {}),
    ...(answered ? { toolResult: answered.result } : {}),
  };
}
