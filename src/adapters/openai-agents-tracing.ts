/**
 * A tracing processor for the OpenAI Agents SDK that keeps the function (tool) spans of each trace:
 * the one place a tool's error is explicit, since a throwing tool reaches the run's result only as
 * the text the model was shown (from @openai/agents 0.20 a fixed sentence without the error, read in
 * agents-core 0.20's tool.mjs). A plain object implementing the SDK's TracingProcessor interface
 * structurally, so nothing of the SDK is imported.
 */

/** The parts of the SDK's Span this processor reads. */
export interface AgentsSpanLike {
  traceId: string;
  spanId: string;
  /** `mcp_data` is set on the span of an MCP tool's call: `{ server }` (a string in the SDK's types). */
  spanData: { type: string; name?: string; input?: string; mcp_data?: unknown };
  error: { message: string; data?: Record<string, unknown> } | null;
  startedAt: string | null;
  endedAt: string | null;
}

/** What a tool call's function span told: its tool, arguments (when traced), error and duration. */
export interface FunctionSpanRecord {
  name: string;
  input?: string;
  error?: { message: string; data?: Record<string, unknown> };
  durationMs?: number;
  /** The MCP server the tool came from (its `name`), for an MCP tool's call. */
  server?: string;
}

export interface OpenAIAgentsTracing {
  onTraceStart(trace: unknown): Promise<void>;
  onTraceEnd(trace: unknown): Promise<void>;
  onSpanStart(span: AgentsSpanLike): Promise<void>;
  onSpanEnd(span: AgentsSpanLike): Promise<void>;
  /**
   * Nothing to flush: spans are kept in memory. The SDK also calls this on processors it keeps when
   * the processor list is replaced, so it does not forget anything.
   */
  shutdown(timeout?: number): Promise<void>;
  forceFlush(): Promise<void>;
  /** Forgets every trace and unregisters from the adapter (the SDK's own list is yours to change). */
  dispose(): void;
  /** The function spans of one trace, in the order they started. */
  functionSpans(traceId: string): FunctionSpanRecord[];
}

export interface OpenAIAgentsTracingOptions {
  /** Traces kept (oldest dropped first), so a long-lived process does not grow without bound. Default 1000. */
  maxTraces?: number;
}

/** Every processor made and not shut down: what `fromOpenAIAgents` reads tool errors from. */
const live = new Set<OpenAIAgentsTracing>();

/** Whether a processor was made (and not disposed): the adapter is then relied on for tool errors. */
export function tracingInUse(): boolean {
  return live.size > 0;
}

/** The trace id the SDK gives a run while tracing is off (agents-core's NoopTrace, 0.14 and 0.20). */
export const UNTRACED_ID = 'no-op';

/** The function spans recorded for a trace by any live processor (empty when none is registered). */
export function recordedFunctionSpans(traceId: string): FunctionSpanRecord[] {
  for (const processor of live) {
    const spans = processor.functionSpans(traceId);
    if (spans.length > 0) return spans;
  }
  return [];
}

/**
 * `addTraceProcessor(openAIAgentsTracing())` once at start-up; `fromOpenAIAgents` then marks the
 * calls whose function span carries an error with `isError: true`. Tracing must be on (the SDK turns
 * it off when NODE_ENV is `test`; `setTracingDisabled(false)` turns it back on).
 */
export function openAIAgentsTracing(options: OpenAIAgentsTracingOptions = {}): OpenAIAgentsTracing {
  const maxTraces = options.maxTraces ?? 1000;
  // trace id -> span id -> record; both Maps keep insertion order, i.e. start order.
  const traces = new Map<string, Map<string, FunctionSpanRecord>>();

  const spansOf = (traceId: string): Map<string, FunctionSpanRecord> => {
    let spans = traces.get(traceId);
    if (!spans) {
      spans = new Map();
      traces.set(traceId, spans);
      for (const oldest of traces.keys()) {
        if (traces.size <= maxTraces) break;
        traces.delete(oldest);
      }
    }
    return spans;
  };

  const processor: OpenAIAgentsTracing = {
    onTraceStart: () => Promise.resolve(),
    onTraceEnd: () => Promise.resolve(),
    onSpanStart(span) {
      if (span.spanData.type === 'function') spansOf(span.traceId).set(span.spanId, { name: span.spanData.name ?? '' });
      return Promise.resolve();
    },
    onSpanEnd(span) {
      if (span.spanData.type !== 'function') return Promise.resolve();
      const record: FunctionSpanRecord = { name: span.spanData.name ?? '' };
      if (span.spanData.input) record.input = span.spanData.input;
      if (span.error) record.error = span.error;
      const server = mcpServerOf(span.spanData.mcp_data);
      if (server) record.server = server;
      const durationMs = elapsed(span.startedAt, span.endedAt);
      if (durationMs !== undefined) record.durationMs = durationMs;
      spansOf(span.traceId).set(span.spanId, record);
      return Promise.resolve();
    },
    shutdown: () => Promise.resolve(),
    forceFlush: () => Promise.resolve(),
    dispose() {
      live.delete(processor);
      traces.clear();
    },
    functionSpans: (traceId) => [...(traces.get(traceId)?.values() ?? [])],
  };
  live.add(processor);
  return processor;
}

/**
 * The server name in a function span's `mcp_data`: agents-core (0.14.3 and 0.20.0, mcp.mjs
 * `mcpToFunctionTool`) sets an object `{ server }` though its types say string; a JSON string is read too.
 */
function mcpServerOf(data: unknown): string | undefined {
  let value = data;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value) as unknown;
    } catch {
      return undefined;
    }
  }
  const server = (value as { server?: unknown } | null | undefined)?.server;
  return typeof server === 'string' && server !== '' ? server : undefined;
}

function elapsed(startedAt: string | null, endedAt: string | null): number | undefined {
  if (!startedAt || !endedAt) return undefined;
  const ms = Date.parse(endedAt) - Date.parse(startedAt);
  return Number.isFinite(ms) && ms >= 0 ? ms : undefined;
}
