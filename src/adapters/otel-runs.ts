import { toolCallsOf } from '../core/agent-run.js';
import { jsonOrText } from './json-text.js';
import { isModelCall, stepsFromSpans, type SpanRecord } from './otel-spans.js';
import type { ExportedSpan } from './otlp-json.js';

/** One agent run read back from a trace: what it was asked, what it answered, which tools it called and had. */
export interface RecordedRun {
  input: string;
  reply: string;
  /** The tools it called, in order (stepsFromSpans' reading of the trace, as under `otel: true`). */
  calls: string[];
  /** The tools it was given, as its spans declare them. */
  tools: string[];
}

/**
 * The agent runs of an exported trace (GenAI semantic conventions, and the AI SDK's spans, as the
 * `otel: true` capture reads them): each outermost `invoke_agent` span with its descendants is one
 * run; a trace with no such span is one run. Input: the last user message of the run's (or its
 * first model call's) `gen_ai.input.messages`; reply: the assistant text of its (or its last model
 * call's) `gen_ai.output.messages`; tools given: `gen_ai.tool.definitions` (the AI SDK's
 * `ai.prompt.tools`). A run whose input or reply the trace does not hold is counted in `skipped`.
 * (OpenTelemetry docs: GenAI agent spans, GenAI attribute registry and the tool-definitions and
 * message JSON schemas; read 2026-12-01.)
 */
export function runsFromSpans(spans: readonly ExportedSpan[]): { runs: RecordedRun[]; skipped: number } {
  const byTrace = new Map<string, ExportedSpan[]>();
  for (const s of spans) {
    const trace = byTrace.get(s.traceId);
    if (trace) trace.push(s);
    else byTrace.set(s.traceId, [s]);
  }
  const runs: RecordedRun[] = [];
  let skipped = 0;
  for (const trace of byTrace.values()) {
    for (const group of runGroups(trace)) {
      const run = recordedRun(group.root, group.spans);
      if (run) runs.push(run);
      else skipped++;
    }
  }
  return { runs, skipped };
}

const isAgent = (s: SpanRecord) => s.attributes['gen_ai.operation.name'] === 'invoke_agent';

/** The outermost agent spans of a trace, each with its descendants; else the whole trace. */
function runGroups(trace: readonly SpanRecord[]): Array<{ root: SpanRecord | undefined; spans: SpanRecord[] }> {
  const byId = new Map(trace.map((s) => [s.spanId, s]));
  // Each span's outermost agent span (itself included), memoised: a span's is its parent's, else
  // itself if it is an agent span. A walk up stops at the first span already known, so a long chain
  // is read once, not once per span below it; a parent-link cycle ends the walk.
  const known = new Map<SpanRecord, SpanRecord | undefined>();
  const outermost = (s: SpanRecord): SpanRecord | undefined => {
    const path: SpanRecord[] = [];
    const onPath = new Set<SpanRecord>();
    let above: SpanRecord | undefined;
    for (let p: SpanRecord | undefined = s; p && !onPath.has(p); p = p.parentSpanId ? byId.get(p.parentSpanId) : undefined) {
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
  const groups = new Map<SpanRecord, SpanRecord[]>();
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

function recordedRun(root: SpanRecord | undefined, spans: SpanRecord[]): RecordedRun | undefined {
  const models = spans.filter(isModelCall).sort((a, b) => a.startMs - b.startMs);
  const steps = stepsFromSpans(spans);
  const input = inputOf(root) ?? inputOf(models[0]) ?? aiSdkPrompt(spans);
  const reply = replyOf(root) ?? replyOf(models[models.length - 1]) ?? aiSdkReply(spans) ?? steps.findLast((s) => s.text)?.text;
  if (input === undefined || reply === undefined) return undefined;
  const calls = toolCallsOf({ reply, steps }).map((c) => c.name);
  const tools = [...new Set(spans.flatMap(declaredTools))];
  return { input, reply, calls, tools };
}

/** The last user message's text of a span's input messages (`gen_ai.input.messages`, or the older `gen_ai.prompt`). */
function inputOf(s: SpanRecord | undefined): string | undefined {
  const messages = s && messageList(s.attributes['gen_ai.input.messages'] ?? s.attributes['gen_ai.prompt']);
  return messages
    ?.filter((m) => m.role === 'user')
    .map(messageText)
    .findLast((t) => t !== undefined);
}

/** The assistant text of a span's output messages (`gen_ai.output.messages`, or the older `gen_ai.completion`). */
function replyOf(s: SpanRecord | undefined): string | undefined {
  const messages = s && messageList(s.attributes['gen_ai.output.messages'] ?? s.attributes['gen_ai.completion']);
  const texts = messages?.filter((m) => m.role === undefined || m.role === 'assistant').flatMap((m) => messageText(m) ?? []);
  return texts && texts.length > 0 ? texts.join('\n') : undefined;
}

type Message = { role?: unknown; parts?: unknown; content?: unknown };

/** Messages held as structured values or as JSON text. */
function messageList(v: unknown): Message[] | undefined {
  const value = typeof v === 'string' ? jsonOrText(v) : v;
  return Array.isArray(value) ? value.filter((m): m is Message => typeof m === 'object' && m !== null) : undefined;
}

/** A message's text: its text parts (`parts: [{ type: 'text', content }]`, or `content` as text or `[{ type: 'text', text }]`). */
function messageText(m: Message): string | undefined {
  const parts = Array.isArray(m.parts) ? m.parts : Array.isArray(m.content) ? m.content : undefined;
  if (!parts) return typeof m.content === 'string' ? m.content : undefined;
  const texts = parts.flatMap((p: { type?: unknown; content?: unknown; text?: unknown }) => (p?.type === 'text' ? [p.content ?? p.text] : [])).filter((t): t is string => typeof t === 'string');
  return texts.length > 0 ? texts.join('\n') : undefined;
}

/** The AI SDK's outermost `ai.prompt` (`{ prompt }` or `{ messages }`). */
function aiSdkPrompt(spans: SpanRecord[]): string | undefined {
  for (const s of outermostFirst(spans)) {
    const prompt = jsonOrText(String(s.attributes['ai.prompt'] ?? ''));
    if (typeof prompt !== 'object' || prompt === null) continue;
    const p = prompt as { prompt?: unknown; messages?: unknown };
    if (typeof p.prompt === 'string') return p.prompt;
    const text = messageList(p.messages)
      ?.filter((m) => m.role === 'user')
      .map(messageText)
      .findLast((t) => t !== undefined);
    if (text !== undefined) return text;
  }
  return undefined;
}

/** The AI SDK's outermost `ai.response.text` (the whole generation's final text). */
function aiSdkReply(spans: SpanRecord[]): string | undefined {
  for (const s of outermostFirst(spans)) {
    const text = s.attributes['ai.response.text'];
    if (typeof text === 'string') return text;
  }
  return undefined;
}

/** Spans by start time, an enclosing span before what it encloses. */
function outermostFirst(spans: SpanRecord[]): SpanRecord[] {
  return [...spans].sort((a, b) => a.startMs - b.startMs || (b.endMs ?? Infinity) - (a.endMs ?? Infinity));
}

/** Tool names a span declares: `gen_ai.tool.definitions` (structured or JSON text), or the AI SDK's `ai.prompt.tools` (each JSON text). */
function declaredTools(s: SpanRecord): string[] {
  const a = s.attributes;
  const defs = a['gen_ai.tool.definitions'] ?? a['ai.prompt.tools'];
  const list = typeof defs === 'string' ? jsonOrText(defs) : defs;
  if (!Array.isArray(list)) return [];
  return list.flatMap((d: unknown) => {
    const def = typeof d === 'string' ? jsonOrText(d) : d;
    const name = typeof def === 'object' && def !== null ? (def as { name?: unknown }).name : undefined;
    return typeof name === 'string' && name ? [name] : [];
  });
}
