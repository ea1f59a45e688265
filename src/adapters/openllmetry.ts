import { indexedAttributes, parsedValue, str, toolDefinitionName, type ChatMessage, type MessageToolCall, type ModelCallMessages } from './chat-messages.js';

/**
 * A model call as OpenLLMetry's instrumentations before 0.27 record it (`@traceloop/instrumentation-openai`
 * and its siblings, span `openai.chat` with `llm.request.type`): one attribute per message field,
 * `gen_ai.prompt.N.{role,content,tool_call_id}` and `gen_ai.prompt.N.tool_calls.M.{id,name,arguments}`,
 * the answer as `gen_ai.completion.N.*` (with `function_call.{name,arguments}` for the older function
 * calling), the tools offered as `llm.request.functions.N.name`. From 0.27 OpenLLMetry writes the
 * OpenTelemetry GenAI attributes instead (otel-genai.ts). (`@traceloop/ai-semantic-conventions`, and
 * `@traceloop/instrumentation-openai` 0.27.0's GenAI output, read 2026-12-04.)
 */
export function openLlmetryMessages(a: Readonly<Record<string, unknown>>): ModelCallMessages | undefined {
  const input = indexedAttributes(a, 'gen_ai.prompt').map((m) => message(m, 'user'));
  const output = indexedAttributes(a, 'gen_ai.completion').map((m) => message(m, 'assistant'));
  const tools = indexedAttributes(a, 'llm.request.functions').flatMap((f) => str(f['name']) ?? toolDefinitionName(f) ?? []);
  if (input.length === 0 && output.length === 0 && tools.length === 0) return undefined;
  return { input, output, tools };
}

function message(m: Record<string, unknown>, defaultRole: string): ChatMessage {
  const role = str(m['role']) ?? defaultRole;
  const toolCalls: MessageToolCall[] = indexedAttributes(m, 'tool_calls').flatMap((c) => call(c['id'], c['name'], c['arguments']) ?? []);
  const fn = call(undefined, m['function_call.name'], m['function_call.arguments']);
  if (fn) toolCalls.push(fn);
  const content = str(m['content']);
  const toolCallId = str(m['tool_call_id']);
  return {
    role,
    ...(content !== undefined && role !== 'tool' ? { text: contentText(content) } : {}),
    toolCalls,
    ...(toolCallId ? { toolCallId } : {}),
    ...(role === 'tool' && content !== undefined ? { toolResult: parsedValue(content) } : {}),
  };
}

function call(id: unknown, name: unknown, args: unknown): MessageToolCall | undefined {
  const n = str(name);
  const i = str(id);
  return n ? { ...(i ? { id: i } : {}), name: n, ...(args !== undefined ? { args: parsedValue(args) } : {}) } : undefined;
}

/** Content as OpenLLMetry kept it: text, or the message's content parts as JSON text (`[{ type: 'text', text }]`). */
function contentText(content: string): string {
  const parts = parsedValue(content);
  if (!Array.isArray(parts)) return content;
  const texts = parts.flatMap((p: { type?: unknown; text?: unknown }) => (p?.type === 'text' && typeof p.text === 'string' ? [p.text] : []));
  return texts.length > 0 ? texts.join('\n') : content;
}
