import { smallest } from '../core/extremes.js';
import { pushAll } from '../core/push-all.js';
import { assistantText, lastUserText, str, type ChatMessage, type ModelCallMessages } from './chat-messages.js';
import { callMessages, inKnownConvention } from './otel-conventions.js';
import { byStart, modelCalls, recordedRun, type RunGroup, type SpanRun } from './otel-recorded-run.js';
import { isModelCall, type SpanRecord } from './otel-spans.js';
import type { ExportedSpan } from './otlp-json.js';

/** The runs of an exported trace; `unknown` when no span is in a convention otel-conventions.ts lists. */
export interface SpanRuns {
  runs: SpanRun[];
  skipped: number;
  unknown: boolean;
}

/** Attributes that name a conversation: OpenTelemetry GenAI's, then OpenInference's. */
const CONVERSATION_KEYS = ['gen_ai.conversation.id', 'session.id'];

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
 * A run whose input or reply the trace does not hold is counted in `skipped`. Each run comes with its
 * id, start, steps, conversation and metadata (otel-recorded-run.ts).
 * (OpenTelemetry docs: GenAI agent spans, GenAI attribute registry and the tool-definitions and
 * message JSON schemas; read 2026-12-04.)
 */
export function spanRuns(spans: readonly ExportedSpan[]): SpanRuns {
  const byTrace = new Map<string, ExportedSpan[]>();
  for (const s of spans) {
    const trace = byTrace.get(s.traceId);
    if (trace) trace.push(s);
    else byTrace.set(s.traceId, [s]);
  }
  const agentRuns: RunGroup[] = [];
  const others: RunGroup[] = [];
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
/** RunGroups by their first span's start. */
function byStartOf(groups: readonly RunGroup[]): RunGroup[] {
  const start = new Map(groups.map((g) => [g, smallest(g.spans.map((s) => s.startMs))]));
  return [...groups].sort((a, b) => start.get(a)! - start.get(b)!);
}

/** The outermost agent spans of a trace, each with its descendants; else the whole trace. */
function runGroups(trace: readonly ExportedSpan[]): RunGroup[] {
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
function byConversation(groups: readonly RunGroup[]): RunGroup[] {
  const merged = new Map<string, RunGroup>();
  const out: RunGroup[] = [];
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
 * RunGroups (in start order) joined where one continues the one before: its first model call sends
 * the messages and the answer of the earlier group's last model call, and that answer asked for
 * tools and said nothing (the agent loop went on, in a trace of its own).
 */
function continued(groups: readonly RunGroup[]): RunGroup[] {
  const out: RunGroup[] = [];
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
function byUserTurn(group: RunGroup): RunGroup[] {
  const turns: RunGroup[] = [];
  let current: RunGroup | undefined;
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
