import { toolCallsOf, type AgentRun } from '../core/agent-run.js';
import type { ChatTurn } from '../core/chat-turn.js';
import { smallest } from '../core/extremes.js';
import { aiSdkPrompt, aiSdkReply } from './ai-sdk-spans.js';
import { assistantText, lastUserText, str, type ChatMessage, type ModelCallMessages } from './chat-messages.js';
import { messageToolCalls } from './message-tool-calls.js';
import { callMessages } from './otel-conventions.js';
import { genAiMessages } from './otel-genai.js';
import { runMetadata } from './otel-run-metadata.js';
import { isModelCall, isToolCall, stepsFromSpans, type SpanRecord } from './otel-spans.js';
import type { ExportedSpan } from './otlp-json.js';

/** One agent run read back from a trace: what it was asked, what it answered, which tools it called and had. */
export interface RecordedRun {
  input: string;
  reply: string;
  /** The tools it called, in order: its tool spans (stepsFromSpans, as under `otel: true`), else its model calls' messages. */
  calls: string[];
  /** The tools it was given, as its spans declare them. */
  tools: string[];
}

/** A recorded run with what its trace holds beyond that: what `agent-evals score` grades. */
export interface SpanRun extends RecordedRun {
  /** The trace id of its first span; `<trace id>-<n>` (n from 1, in start order) when that trace starts several runs. */
  id: string;
  /** When its first span started, in milliseconds since the epoch, when the export says. */
  startMs?: number;
  /** The conversation up to and including `input`, when the run answered one message of several. */
  messages?: ChatTurn[];
  /** Its steps (model calls with usage and model, tool calls with arguments, results and errors), reply and instructions. */
  run: AgentRun;
  /** What its spans and resource say about it (otel-run-metadata.ts). */
  metadata: Record<string, unknown>;
}

/** The spans of one recorded run, as otel-runs.ts groups a trace. */
export interface RunGroup {
  /** The outermost `invoke_agent` span, when the run has one. */
  root: ExportedSpan | undefined;
  spans: ExportedSpan[];
}

export const byStart = <S extends SpanRecord>(spans: readonly S[]) => [...spans].sort((a, b) => a.startMs - b.startMs);
export const modelCalls = (g: RunGroup) => byStart(g.spans.filter(isModelCall));

/**
 * One group's run: input, reply, tool names (what `import` keeps), and its id, start, steps,
 * conversation and metadata (what `score` grades); undefined when the spans hold no input or no reply.
 * Input: the last user message of the run's agent span, else of its first model call; reply: the
 * assistant text of the agent span, else of its last model call; steps: stepsFromSpans, with the
 * tool calls read off the model calls' messages when no tool span recorded them.
 */
export function recordedRun({ root, spans }: RunGroup): SpanRun | undefined {
  const calls = modelCalls({ root, spans }).flatMap((s) => callMessages(s) ?? []);
  const agent = root && genAiMessages(root.attributes);
  const asked = spans.some(isToolCall) ? undefined : messageToolCalls(calls);
  const steps = stepsFromSpans(inAskedOrder(spans, calls), asked && ((s) => asked(callMessages(s))));
  const prompt = agent && lastUserText(agent.input) !== undefined ? agent.input : (calls[0]?.input ?? []);
  const input = lastUserText(prompt) ?? aiSdkPrompt(spans);
  const lastCall = calls[calls.length - 1];
  const reply = (agent && assistantText(agent.output)) ?? (lastCall && assistantText(lastCall.output)) ?? aiSdkReply(spans) ?? steps.findLast((s) => s.text)?.text;
  if (input === undefined || reply === undefined) return undefined;
  const run: AgentRun = { reply, ...(steps.length > 0 ? { steps } : {}) };
  const model = steps.findLast((s) => s.model)?.model;
  if (model) run.model = model;
  const instructions = prompt.find((m) => m.role === 'system' && m.text)?.text;
  if (instructions) run.instructions = instructions;
  const startMs = smallest(spans.map((s) => s.startMs));
  const messages = conversation(prompt);
  return {
    input,
    reply,
    calls: toolCallsOf(run).map((c) => c.name),
    tools: [...new Set(spans.flatMap((s) => callMessages(s)?.tools ?? []))],
    id: byStart(spans)[0]!.traceId,
    ...(startMs > 0 ? { startMs } : {}),
    ...(messages ? { messages } : {}),
    run,
    metadata: runMetadata(spans),
  };
}

/** A tool span's tool call id: the AI SDK's, OpenTelemetry GenAI's, OpenInference's. */
const TOOL_CALL_ID_KEYS = ['ai.toolCall.id', 'gen_ai.tool.call.id', 'tool_call.id'];

/**
 * Spans by start, tool spans that started in the same millisecond (an export keeps no finer time,
 * and lists spans as they ended) in the order the model asked for them, by tool call id.
 */
function inAskedOrder(spans: readonly ExportedSpan[], calls: readonly ModelCallMessages[]): ExportedSpan[] {
  const asked = new Map<string, number>();
  for (const call of calls) for (const m of call.output) for (const c of m.toolCalls) if (c.id !== undefined && !asked.has(c.id)) asked.set(c.id, asked.size);
  const rank = (s: SpanRecord) => {
    const id = isToolCall(s) ? TOOL_CALL_ID_KEYS.map((k) => str(s.attributes[k])).find(Boolean) : undefined;
    return id === undefined ? undefined : asked.get(id);
  };
  const sorted = byStart(spans);
  // Within each millisecond, the ranked tool spans trade places among themselves; the rest stay put.
  for (let from = 0; from < sorted.length;) {
    let to = from + 1;
    while (to < sorted.length && sorted[to]!.startMs === sorted[from]!.startMs) to++;
    const at = [...Array(to - from).keys()].map((i) => from + i).filter((i) => rank(sorted[i]!) !== undefined);
    const ranked = at.map((i) => sorted[i]!).sort((a, b) => rank(a)! - rank(b)!);
    for (const [j, i] of at.entries()) sorted[i] = ranked[j]!;
    from = to;
  }
  return sorted;
}

/** The user and assistant texts of a prompt up to its last user message, when there are more than that one. */
function conversation(prompt: readonly ChatMessage[]): ChatTurn[] | undefined {
  const turns = prompt
    .slice(0, prompt.findLastIndex((m) => m.role === 'user' && m.text !== undefined) + 1)
    .flatMap((m): ChatTurn[] => ((m.role === 'user' || m.role === 'assistant') && m.text !== undefined ? [{ role: m.role, content: m.text }] : []));
  return turns.length > 1 ? turns : undefined;
}
