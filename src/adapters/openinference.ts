import { indexedAttributes, parsedValue, str, toolDefinitionName, type ChatMessage, type MessageToolCall, type ModelCallMessages } from './chat-messages.js';

/**
 * A model call as OpenInference records it (`@arizeai/openinference-instrumentation-openai` and the
 * other OpenInference instrumentations; `openinference.span.kind: LLM`): one attribute per message
 * field, `llm.input_messages.N.message.{role,content,tool_call_id}`, content parts as
 * `message.contents.K.message_content.{type,text}`, tool calls as
 * `message.tool_calls.M.tool_call.{id,function.name,function.arguments}`, the answer as
 * `llm.output_messages.N.message.*`, the tools offered as `llm.tools.N.tool.json_schema` (Chat
 * Completions' tool JSON). (`@arizeai/openinference-semantic-conventions` 2.12.0, as
 * `@arizeai/openinference-instrumentation-openai` 4.2.7 writes it, read 2026-12-04.)
 */
export function openInferenceMessages(a: Readonly<Record<string, unknown>>): ModelCallMessages | undefined {
  const input = indexedAttributes(a, 'llm.input_messages').map((m) => message(m, 'user'));
  const output = indexedAttributes(a, 'llm.output_messages').map((m) => message(m, 'assistant'));
  const tools = indexedAttributes(a, 'llm.tools').flatMap((t) => toolDefinitionName(t['tool.json_schema']) ?? str(t['tool.name']) ?? []);
  if (input.length === 0 && output.length === 0 && tools.length === 0) return undefined;
  return { input, output, tools };
}

function message(m: Record<string, unknown>, defaultRole: string): ChatMessage {
  const role = str(m['message.role']) ?? defaultRole;
  const toolCalls: MessageToolCall[] = indexedAttributes(m, 'message.tool_calls').flatMap((c) => {
    const name = str(c['tool_call.function.name']);
    const id = str(c['tool_call.id']);
    const args = c['tool_call.function.arguments'];
    return name ? [{ ...(id ? { id } : {}), name, ...(args !== undefined ? { args: parsedValue(args) } : {}) }] : [];
  });
  const parts = indexedAttributes(m, 'message.contents')
    .filter((p) => p['message_content.type'] === 'text')
    .flatMap((p) => str(p['message_content.text']) ?? []);
  const content = typeof m['message.content'] === 'string' ? m['message.content'] : parts.length > 0 ? parts.join('\n') : undefined;
  const toolCallId = str(m['message.tool_call_id']);
  return {
    role,
    ...(content !== undefined && role !== 'tool' ? { text: content } : {}),
    toolCalls,
    ...(toolCallId ? { toolCallId } : {}),
    ...(role === 'tool' && content !== undefined ? { toolResult: parsedValue(content) } : {}),
  };
}
