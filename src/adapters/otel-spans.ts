import type { Step, ToolCall } from '../core/agent-run.js';
import type { TokenUsage } from '../core/usage.js';
import { jsonOrText } from './json-text.js';
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

const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);
const first = <T>(a: Readonly<Record<string, unknown>>, read: (v: unknown) => T | undefined, keys: string[]): T | undefined => {
  for (const k of keys) {
    const v = read(a[k]);
    if (v !== undefined) return v;
  }
  return undefined;
};

/** A span that is one model call (also read by otel-runs.ts, for an exported trace's input and reply). */
export function isModelCall(s: SpanRecord): boolean {
  return AI_SDK_CALL.test(s.name) || MODEL_OPERATIONS.has(String(s.attributes['gen_ai.operation.name']));
}

function isToolCall(s: SpanRecord): boolean {
  return s.name === 'ai.toolCall' || s.attributes['gen_ai.operation.name'] === 'execute_tool';
}

function toolName(s: SpanRecord): string {
  return first(s.attributes, str, ['ai.toolCall.name', 'gen_ai.tool.name']) ?? s.name.replace(/^execute_tool\s+/, '');
}

/**
 * The steps of an agent's run, from the spans of its trace: one step per model call (its usage,
 * model and text) in start order, each tool call on the step of the model call before it.
 * A model call inside another (two instrumentations of the same call) counts once, as the outer
 * one; so does a tool span inside a tool span of the same name.
 */
export function stepsFromSpans(spans: readonly SpanRecord[]): Step[] {
  const byId = new Map(spans.map((s) => [s.spanId, s]));
  const hasAncestor = (s: SpanRecord, match: (a: SpanRecord) => boolean): boolean => {
    const seen = new Set<string>();
    for (let p = s.parentSpanId && byId.get(s.parentSpanId); p && !seen.has(p.spanId); p = p.parentSpanId && byId.get(p.parentSpanId)) {
      seen.add(p.spanId);
      if (match(p)) return true;
    }
    return false;
  };
  const steps: Step[] = [];
  let current: Step | undefined;
  // A stable sort: spans started in the same millisecond keep the order they were started in.
  for (const s of [...spans].sort((a, b) => a.startMs - b.startMs)) {
    if (isModelCall(s)) {
      if (hasAncestor(s, isModelCall)) continue;
      const step = modelStep(s);
      if (!step) continue;
      steps.push(step);
      current = step;
    } else if (isToolCall(s) && s.endMs !== undefined) {
      const name = toolName(s);
      if (hasAncestor(s, (a) => isToolCall(a) && toolName(a) === name)) continue;
      const call = toolCall(s, name, s.endMs);
      if (current) (current.toolCalls ??= []).push(call);
      else steps.push({ toolCalls: [call] });
    }
  }
  return steps;
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

/** Token counts; `input_tokens` is the whole prompt, cache reads and writes included. */
function usageOf(a: Readonly<Record<string, unknown>>): TokenUsage | undefined {
  const input = first(a, count, ['gen_ai.usage.input_tokens', 'ai.usage.inputTokens', 'ai.usage.promptTokens', 'gen_ai.usage.prompt_tokens']);
  const output = first(a, count, ['gen_ai.usage.output_tokens', 'ai.usage.outputTokens', 'ai.usage.completionTokens', 'gen_ai.usage.completion_tokens']);
  if (input === undefined && output === undefined) return undefined;
  const cached = first(a, count, ['gen_ai.usage.cache_read.input_tokens', 'ai.usage.inputTokenDetails.cacheReadTokens', 'ai.usage.cachedInputTokens']);
  const cacheWrite = first(a, count, ['gen_ai.usage.cache_creation.input_tokens', 'ai.usage.inputTokenDetails.cacheWriteTokens']);
  const reasoning = first(a, count, ['gen_ai.usage.reasoning.output_tokens', 'ai.usage.outputTokenDetails.reasoningTokens', 'ai.usage.reasoningTokens']);
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
  const named = first(a, str, ['ai.model.provider', 'gen_ai.provider.name', 'gen_ai.system']);
  const provider = named === undefined ? undefined : providerId(named);
  const id = first(a, str, ['gen_ai.response.model', 'ai.response.model', 'gen_ai.request.model', 'ai.model.id']);
  return provider && id ? `${provider}:${id}` : undefined;
}

function toolCall(s: SpanRecord, name: string, endMs: number): ToolCall {
  const a = s.attributes;
  const args = parsed(a['ai.toolCall.args'] ?? a['gen_ai.tool.call.arguments']);
  const isError = s.status === 'error';
  const result = isError ? (s.statusMessage ?? s.exceptionMessage ?? 'the tool failed') : parsed(a['ai.toolCall.result'] ?? a['gen_ai.tool.call.result']);
  return { name, ...(args !== undefined ? { args } : {}), ...(result !== undefined ? { result } : {}), isError, durationMs: Math.max(0, endMs - s.startMs) };
}

/** Span attributes hold JSON as text: parsed when it is JSON, kept as text otherwise. */
function parsed(v: unknown): unknown {
  return typeof v === 'string' ? jsonOrText(v) : v;
}
