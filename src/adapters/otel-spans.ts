import type { Step, ToolCall } from '../core/agent-run.js';
import type { TokenUsage } from '../core/usage.js';
import { parsedValue, str } from './chat-messages.js';
import { count, providerId } from './token-counts.js';

/**
 * One OpenTelemetry span as plain data: what the target edge reads off the SDK's spans, so the
 * mapping below needs no OpenTelemetry package. Times are milliseconds; `endMs` is absent while
 * the span is still open.
 */
export interface SpanRecord {
  spanId: string;
  parentSpanId?: string;
  name: string;
  startMs: number;
  endMs?: number;
  attributes: Readonly<Record<string, unknown>>;
  status: 'unset' | 'ok' | 'error';
  statusMessage?: string;
  /** `exception.message` of the span's first exception event. */
  exceptionMessage?: string;
}

/** The AI SDK's own span for one provider call (`ai.generateText.doGenerate`, `ai.streamText.doStream`, ...). */
const AI_SDK_CALL = /^ai\.[A-Za-z]+\.do(Generate|Stream)$/;
/** GenAI semantic-convention operations that are one model call. */
const MODEL_OPERATIONS = new Set(['chat', 'text_completion', 'generate_content']);
/** OpenLLMetry's `llm.request.type` values that are one model call (`@traceloop/ai-semantic-conventions`). */
const OPENLLMETRY_CALLS = new Set(['chat', 'completion']);

const first = <T>(a: Readonly<Record<string, unknown>>, read: (v: unknown) => T | undefined, keys: string[]): T | undefined => {
  for (const k of keys) {
    const v = read(a[k]);
    if (v !== undefined) return v;
  }
  return undefined;
};

/** Spans by start time, an enclosing span before what it encloses. */
export function outermostFirst<S extends SpanRecord>(spans: readonly S[]): S[] {
  return [...spans].sort((a, b) => a.startMs - b.startMs || (b.endMs ?? Infinity) - (a.endMs ?? Infinity));
}

/** A span that is one model call (also read by otel-runs.ts, for an exported trace's input and reply). */
export function isModelCall(s: SpanRecord): boolean {
  const a = s.attributes;
  return (
    AI_SDK_CALL.test(s.name) ||
    MODEL_OPERATIONS.has(String(a['gen_ai.operation.name'])) ||
    a['openinference.span.kind'] === 'LLM' ||
    // OpenLLMetry before its GenAI attributes (0.27) named the operation here.
    (a['gen_ai.operation.name'] === undefined && OPENLLMETRY_CALLS.has(String(a['llm.request.type'])))
  );
}

/** A span that is one tool call: the AI SDK's, GenAI `execute_tool`, OpenInference's `TOOL` kind. */
export function isToolCall(s: SpanRecord): boolean {
  return s.name === 'ai.toolCall' || s.attributes['gen_ai.operation.name'] === 'execute_tool' || s.attributes['openinference.span.kind'] === 'TOOL';
}

function toolName(s: SpanRecord): string {
  return first(s.attributes, str, ['ai.toolCall.name', 'gen_ai.tool.name', 'tool.name']) ?? s.name.replace(/^execute_tool\s+/, '');
}

/**
 * The steps of an agent's run, from the spans of its trace: one step per model call (its usage,
 * model and text) in start order, each tool call on the step of the model call before it.
 * A model call inside another (two instrumentations of the same call) counts once, as the outer
 * one; so does a tool span inside a tool span of the same name. `askedTools`, for a trace with no
 * tool span, gives the tool calls a model call asked for (read off its messages), asked in start order.
 */
export function stepsFromSpans(spans: readonly SpanRecord[], askedTools?: (modelCall: SpanRecord) => ToolCall[]): Step[] {
  const nested = nestedSpans(spans);
  const steps: Step[] = [];
  let current: Step | undefined;
  // A stable sort: spans started in the same millisecond keep the order they were started in.
  for (const s of [...spans].sort((a, b) => a.startMs - b.startMs)) {
    if (isModelCall(s)) {
      if (nested.has(s)) continue;
      const step = modelStep(s);
      if (!step) continue;
      const asked = askedTools?.(s);
      if (asked?.length) step.toolCalls = asked;
      steps.push(step);
      current = step;
    } else if (isToolCall(s) && s.endMs !== undefined) {
      if (nested.has(s)) continue;
      const name = toolName(s);
      const call = toolCall(s, name, s.endMs);
      if (current) (current.toolCalls ??= []).push(call);
      else steps.push({ toolCalls: [call] });
    }
  }
  return steps;
}

/**
 * The model calls inside a model call, and the tool spans inside a tool span of the same name: one
 * walk down the tree with a count of the model calls and tool names above each span, so each span's
 * parent link is read once (walking up from every span was quadratic on a long chain). A span in a
 * parent-link cycle, reached from no root, is not nested.
 */
export function nestedSpans(spans: readonly SpanRecord[]): Set<SpanRecord> {
  const ids = new Set(spans.map((s) => s.spanId));
  const children = new Map<string, SpanRecord[]>();
  const roots: SpanRecord[] = [];
  for (const s of spans) {
    const parent = s.parentSpanId;
    if (parent === undefined || !ids.has(parent)) roots.push(s);
    else {
      const siblings = children.get(parent);
      if (siblings) siblings.push(s);
      else children.set(parent, [s]);
    }
  }
  const nested = new Set<SpanRecord>();
  const visited = new Set<SpanRecord>();
  const toolsAbove = new Map<string, number>();
  let modelsAbove = 0;
  // An explicit stack (a chain of 20,000 spans is as deep): `exit` undoes what entering a span counted.
  const stack: Array<{ span: SpanRecord; exit: boolean }> = roots.reverse().map((span) => ({ span, exit: false }));
  while (stack.length > 0) {
    const { span, exit } = stack.pop()!;
    const model = isModelCall(span);
    const tool = isToolCall(span) ? toolName(span) : undefined;
    if (exit) {
      if (model) modelsAbove -= 1;
      if (tool !== undefined) toolsAbove.set(tool, toolsAbove.get(tool)! - 1);
      continue;
    }
    if (visited.has(span)) continue;
    visited.add(span);
    if (model ? modelsAbove > 0 : tool !== undefined && (toolsAbove.get(tool) ?? 0) > 0) nested.add(span);
    if (model) modelsAbove += 1;
    if (tool !== undefined) toolsAbove.set(tool, (toolsAbove.get(tool) ?? 0) + 1);
    stack.push({ span, exit: true });
    const below = children.get(span.spanId) ?? [];
    for (let i = below.length - 1; i >= 0; i--) stack.push({ span: below[i]!, exit: false });
  }
  return nested;
}

/** A model call's step; undefined for a failed call that reported no usage (nothing was billed). */
function modelStep(s: SpanRecord): Step | undefined {
  const a = s.attributes;
  const model = modelOf(a);
  const base: Step = model ? { model } : {};
  // Still waiting for its answer when the trial ended: sent, maybe billed, tokens unknown.
  if (s.endMs === undefined) return { ...base, usageUnknown: true };
  const usage = usageOf(a);
  if (!usage) return s.status === 'error' ? undefined : { ...base, usageUnknown: true };
  const text = str(a['ai.response.text']);
  return { ...(text ? { text } : {}), usage, ...base };
}

/** Token counts; `input_tokens` is the whole prompt, cache reads and writes included (OpenInference's `llm.token_count.prompt` too). */
function usageOf(a: Readonly<Record<string, unknown>>): TokenUsage | undefined {
  const input = first(a, count, ['gen_ai.usage.input_tokens', 'ai.usage.inputTokens', 'ai.usage.promptTokens', 'gen_ai.usage.prompt_tokens', 'llm.token_count.prompt']);
  const output = first(a, count, ['gen_ai.usage.output_tokens', 'ai.usage.outputTokens', 'ai.usage.completionTokens', 'gen_ai.usage.completion_tokens', 'llm.token_count.completion']);
  if (input === undefined && output === undefined) return undefined;
  const cached = first(a, count, ['gen_ai.usage.cache_read.input_tokens', 'ai.usage.inputTokenDetails.cacheReadTokens', 'ai.usage.cachedInputTokens', 'llm.token_count.prompt_details.cache_read']);
  const cacheWrite = first(a, count, ['gen_ai.usage.cache_creation.input_tokens', 'ai.usage.inputTokenDetails.cacheWriteTokens', 'llm.token_count.prompt_details.cache_write']);
  const reasoning = first(a, count, [
    'gen_ai.usage.reasoning.output_tokens',
    'ai.usage.outputTokenDetails.reasoningTokens',
    'ai.usage.reasoningTokens',
    'llm.token_count.completion_details.reasoning',
  ]);
  return {
    inputTokens: input ?? 0,
    outputTokens: output ?? 0,
    ...(cached ? { cachedInputTokens: cached } : {}),
    ...(cacheWrite ? { cacheWriteTokens: cacheWrite } : {}),
    ...(reasoning ? { reasoningTokens: reasoning } : {}),
  };
}

/** `provider:model`, the provider cut at its first `.` (`openai.chat` → `openai`); the answering model first. */
function modelOf(a: Readonly<Record<string, unknown>>): string | undefined {
  const named = first(a, str, ['ai.model.provider', 'gen_ai.provider.name', 'gen_ai.system', 'llm.provider', 'llm.system']);
  const provider = named === undefined ? undefined : providerId(named);
  const id = first(a, str, ['gen_ai.response.model', 'ai.response.model', 'gen_ai.request.model', 'ai.model.id', 'llm.model_name']);
  return provider && id ? `${provider}:${id}` : undefined;
}

function toolCall(s: SpanRecord, name: string, endMs: number): ToolCall {
  const a = s.attributes;
  // OpenInference's tool span holds its arguments and result as the span's `input.value` / `output.value`.
  const openInference = a['openinference.span.kind'] === 'TOOL';
  const args = parsedValue(a['ai.toolCall.args'] ?? a['gen_ai.tool.call.arguments'] ?? (openInference ? a['input.value'] : undefined));
  const isError = s.status === 'error';
  const result = isError
    ? (s.statusMessage ?? s.exceptionMessage ?? 'the tool failed')
    : parsedValue(a['ai.toolCall.result'] ?? a['gen_ai.tool.call.result'] ?? (openInference ? a['output.value'] : undefined));
  return { name, ...(args !== undefined ? { args } : {}), ...(result !== undefined ? { result } : {}), isError, durationMs: Math.max(0, endMs - s.startMs) };
}
