import { toolCallsOf, type AgentRun } from '../core/agent-run.js';
import type { ChatTurn } from '../core/chat-turn.js';
import { smallest } from '../core/extremes.js';
import { pushAll } from '../core/push-all.js';
import { aiSdkPrompt, aiSdkReply } from './ai-sdk-spans.js';
import { assistantText, lastUserText, str, type ChatMessage, type ModelCallMessages } from './chat-messages.js';
import { messageToolCalls } from './message-tool-calls.js';
import { callMessages, inKnownConvention } from './otel-conventions.js';
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

/** The runs of an exported trace; `unknown` when no span is in a convention otel-conventions.ts lists. */
export interface SpanRuns<R extends RecordedRun = RecordedRun> {
  runs: R[];
  skipped: number;
  unknown: boolean;
}

/** Attributes that name a conversation: OpenTelemetry GenAI's, then OpenInference's. */
const CONVERSATION_KEYS = ['gen_ai.conversation.id', 'session.id'];

interface Group {
  /** The outermost `invoke_agent` span, when the run has one. */
  root: ExportedSpan | undefined;
  spans: ExportedSpan[];
}

/**
 * The agent runs of an exported trace (the conventions of otel-conventions.ts). Each outermost
 * `invoke_agent` span with its descendants is one run. Spans outside one are grouped by conversation
 * id when they carry one (`gen_ai.conversation.id`, OpenInference's `session.id`), else by trace: the
 * model calls under one parent share it. A trace that only continues an earlier one's conversation
 * (its first model call sends the earlier one's messages and answer, which ended asking for tools:
 * model-call spans recorded with no parent span are each a trace of their own) joins it. Such a
 * group holds one run per user message it asks (a conversation of several turns is several runs).
 * Input: the last user message of the run's agent span, else of its first model call; reply: the
 * assistant text of the agent span, else of its last model call; tools called: its tool spans, else
 * the tool calls its model calls' messages hold; tools given: the tool definitions its spans declare.
 * A run whose input or reply the trace does not hold is counted in `skipped`.
 * (OpenTelemetry docs: GenAI agent spans, GenAI attribute registry and the tool-definitions and
 * message JSON schemas; read 2026-12-04.)
 */
export function runsFromSpans(spans: readonly ExportedSpan[]): SpanRuns {
  const read = spanRuns(spans);
  return { ...read, runs: read.runs.map(({ input, reply, calls, tools }) => ({ input, reply, calls, tools })) };
}

/** The runs of an exported trace as runsFromSpans groups them, each with its id, start, steps and metadata. */
export function spanRuns(spans: readonly ExportedSpan[]): SpanRuns<SpanRun> {
  const byTrace = new Map<string, ExportedSpan[]>();
  for (const s of spans) {
    const trace = byTrace.get(s.traceId);
    if (trace) trace.push(s);
    else byTrace.set(s.traceId, [s]);
  }
  const agentRuns: Group[] = [];
  const others: Group[] = [];
  for (const trace of byTrace.values()) for (const group of runGroups(trace)) (group.root ? agentRuns : others).push(group);
  const groups = byStartOf([...agentRuns, ...continued(byConversation(others)).flatMap(byUserTurn)]);
  const runs: SpanRun[] = [];
  let skipped = 0;
  for (const group of groups) {
    const run = recordedRun(group);
    if (run) runs.push(run);
    else skipped++;
  }
  return { runs: uniqueIds(runs), skipped, unknown: spans.length > 0 && !spans.some(inKnownConvention) };
}

/** Runs whose first spans share a trace numbered in it, so each id names one run. */
function uniqueIds(runs: SpanRun[]): SpanRun[] {
  const per = new Map<string, number>();
  for (const r of runs) per.set(r.id, (per.get(r.id) ?? 0) + 1);
  const seen = new Map<string, number>();
  return runs.map((r) => {
    if (per.get(r.id) === 1) return r;
    const n = (seen.get(r.id) ?? 0) + 1;
    seen.set(r.id, n);
    return { ...r, id: `${r.id}-${n}` };
  });
}

const isAgent = (s: SpanRecord) => s.attributes['gen_ai.operation.name'] === 'invoke_agent';
/** Groups by their first span's start. */
function byStartOf(groups: readonly Group[]): Group[] {
  const start = new Map(groups.map((g) => [g, smallest(g.spans.map((s) => s.startMs))]));
  return [...groups].sort((a, b) => start.get(a)! - start.get(b)!);
}
const byStart = <S extends SpanRecord>(spans: readonly S[]) => [...spans].sort((a, b) => a.startMs - b.startMs);
const modelCalls = (g: Group) => byStart(g.spans.filter(isModelCall));

/** The outermost agent spans of a trace, each with its descendants; else the whole trace. */
function runGroups(trace: readonly ExportedSpan[]): Group[] {
  const byId = new Map(trace.map((s) => [s.spanId, s]));
  // Each span's outermost agent span (itself included), memoised: a span's is its parent's, else
  // itself if it is an agent span. A walk up stops at the first span already known, so a long chain
  // is read once, not once per span below it; a parent-link cycle ends the walk.
  const known = new Map<ExportedSpan, ExportedSpan | undefined>();
  const outermost = (s: ExportedSpan): ExportedSpan | undefined => {
    const path: ExportedSpan[] = [];
    const onPath = new Set<ExportedSpan>();
    let above: ExportedSpan | undefined;
    for (let p: ExportedSpan | undefined = s; p && !onPath.has(p); p = p.parentSpanId ? byId.get(p.parentSpanId) : undefined) {
      if (known.has(p)) {
        above = known.get(p);
        break;
      }
      path.push(p);
      onPath.add(p);
    }
    for (let i = path.length - 1; i >= 0; i--) {
      const span = path[i]!;
      above ??= isAgent(span) ? span : undefined;
      known.set(span, above);
    }
    return above;
  };
  const groups = new Map<ExportedSpan, ExportedSpan[]>();
  for (const s of trace) {
    const root = outermost(s);
    if (!root) continue;
    const group = groups.get(root);
    if (group) group.push(s);
    else groups.set(root, [s]);
  }
  if (groups.size === 0) return [{ root: undefined, spans: [...trace] }];
  return [...groups].sort(([a], [b]) => a.startMs - b.startMs).map(([root, spans]) => ({ root, spans }));
}

/** Traces of one conversation id as one group (in start order); a trace without one stays its own. */
function byConversation(groups: readonly Group[]): Group[] {
  const merged = new Map<string, Group>();
  const out: Group[] = [];
  for (const g of byStartOf(groups)) {
    const id = g.spans.map((s) => CONVERSATION_KEYS.map((k) => str(s.attributes[k])).find(Boolean)).find(Boolean);
    const into = id === undefined ? undefined : merged.get(id);
    if (into) pushAll(into.spans, g.spans);
    else {
      const copy = { root: undefined, spans: [...g.spans] };
      if (id !== undefined) merged.set(id, copy);
      out.push(copy);
    }
  }
  return out;
}

/**
 * Groups (in start order) joined where one continues the one before: its first model call sends
 * the messages and the answer of the earlier group's last model call, and that answer asked for
 * tools and said nothing (the agent loop went on, in a trace of its own).
 */
function continued(groups: readonly Group[]): Group[] {
  const out: Group[] = [];
  let last: ModelCallMessages | undefined;
  for (const g of groups) {
    const calls = modelCalls(g).map(callMessages);
    const next = calls.find(Boolean);
    const prev = out[out.length - 1];
    const joins = prev && last && next && endsAskingForTools(last) && startsWith(next.input, [...last.input, ...last.output]);
    if (joins) pushAll(prev.spans, g.spans);
    else out.push({ root: undefined, spans: [...g.spans] });
    last = calls.findLast(Boolean) ?? (joins ? last : undefined);
  }
  return out;
}

const endsAskingForTools = (m: ModelCallMessages) => m.output.some((o) => o.toolCalls.length > 0) && assistantText(m.output) === undefined;

/** `messages` begins with `prefix`: the same roles, texts and tool calls (by id and name). */
function startsWith(messages: readonly ChatMessage[], prefix: readonly ChatMessage[]): boolean {
  const key = (m: ChatMessage) => JSON.stringify([m.role, m.text ?? '', m.toolCalls.map((c) => [c.id ?? '', c.name])]);
  return prefix.length > 0 && prefix.length <= messages.length && prefix.every((m, i) => key(m) === key(messages[i]!));
}

/**
 * A group split where its model calls start asking another user message: each turn of a
 * conversation is one run. The spans between go with the turn of the model call before them.
 */
function byUserTurn(group: Group): Group[] {
  const turns: Group[] = [];
  let current: Group | undefined;
  let asked: string | undefined;
  for (const s of byStart(group.spans)) {
    const user = isModelCall(s) ? lastUserText(callMessages(s)?.input ?? []) : undefined;
    if (current && user !== undefined && asked !== undefined && user !== asked) current = undefined;
    if (user !== undefined) asked = user;
    if (!current) {
      current = { root: undefined, spans: [] };
      turns.push(current);
    }
    current.spans.push(s);
  }
  return turns;
}

function recordedRun({ root, spans }: Group): SpanRun | undefined {
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
