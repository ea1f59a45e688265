import type { MessagesReader, ModelCallMessages } from './chat-messages.js';
import { aiSdkMessages } from './ai-sdk-spans.js';
import { openInferenceMessages } from './openinference.js';
import { openLlmetryMessages } from './openllmetry.js';
import { genAiMessages } from './otel-genai.js';
import { isModelCall, isToolCall, type SpanRecord } from './otel-spans.js';

/** The span conventions `agent-evals import` reads, each with what names it in a file, in the order they are tried. */
export const SPAN_CONVENTIONS: ReadonlyArray<{ name: string; keys: string; read: MessagesReader }> = [
  { name: 'OpenTelemetry GenAI', keys: 'gen_ai.input.messages, gen_ai.output.messages, gen_ai.tool.definitions, execute_tool spans', read: genAiMessages },
  { name: 'OpenLLMetry', keys: 'gen_ai.prompt.N.*, gen_ai.completion.N.*, llm.request.functions.*', read: openLlmetryMessages },
  { name: 'OpenInference', keys: 'openinference.span.kind, llm.input_messages.*, llm.output_messages.*, llm.tools.*, tool.*', read: openInferenceMessages },
  { name: 'the AI SDK', keys: 'ai.* spans', read: aiSdkMessages },
];

/** Each span's messages once read: grouping a trace asks for a span's several times, and reading parses JSON. */
const read = new WeakMap<SpanRecord, ModelCallMessages | undefined>();

/** A span's record of a model call's messages, in the first convention that holds one. */
export function callMessages(s: SpanRecord): ModelCallMessages | undefined {
  if (read.has(s)) return read.get(s);
  const messages = SPAN_CONVENTIONS.map((c) => c.read(s.attributes)).find(Boolean);
  read.set(s, messages);
  return messages;
}

/** A span of one of the conventions: an agent, model call or tool span, or one that records messages. */
export function inKnownConvention(s: SpanRecord): boolean {
  const a = s.attributes;
  return isModelCall(s) || isToolCall(s) || a['gen_ai.operation.name'] !== undefined || a['openinference.span.kind'] !== undefined || s.name.startsWith('ai.') || callMessages(s) !== undefined;
}
