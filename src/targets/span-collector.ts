import type { ReadableSpan, Span, SpanProcessor } from '@opentelemetry/sdk-trace-base';
import type { SpanRecord } from '../adapters/otel-spans.js';

/** Marks the root span a trial opens (its value names the trial); its trace is that trial's. */
export const TRIAL_ATTRIBUTE = 'agent-evals.trial';

/**
 * A span processor that keeps, in memory only, the spans of every trial's trace while the trial
 * is open. Spans are attributed by trace, never by time, so concurrent trials stay apart; spans of
 * any other trace are ignored and nothing is exported. Only types are imported from the SDK: the
 * one instance is reachable without loading OpenTelemetry.
 */
export class TrialSpanCollector implements SpanProcessor {
  readonly #open = new Map<string, Span[]>();

  onStart(span: Span): void {
    const { traceId } = span.spanContext();
    const spans = this.#open.get(traceId);
    if (spans) spans.push(span);
    else if (span.attributes[TRIAL_ATTRIBUTE] !== undefined && parentOf(span) === undefined) this.#open.set(traceId, []);
  }

  onEnd(): void {}

  forceFlush(): Promise<void> {
    return Promise.resolve();
  }

  shutdown(): Promise<void> {
    this.#open.clear();
    return Promise.resolve();
  }

  /** Whether a trial's root span of this trace was seen (the collector is on the provider that made it). */
  has(traceId: string): boolean {
    return this.#open.has(traceId);
  }

  /** The trace's spans so far, still open ones included, root excluded. */
  spans(traceId: string): SpanRecord[] {
    return (this.#open.get(traceId) ?? []).map(record);
  }

  /** Forgets the trace: later spans of it are ignored. */
  close(traceId: string): void {
    this.#open.delete(traceId);
  }
}

/** The one collector of this process. */
export const trialSpans = new TrialSpanCollector();

/** `parentSpanContext` since SDK 2, `parentSpanId` before (a user's own provider may be older). */
function parentOf(span: ReadableSpan): string | undefined {
  return span.parentSpanContext?.spanId ?? (span as { parentSpanId?: string }).parentSpanId;
}

const ms = ([seconds, nanos]: readonly [number, number]) => seconds * 1000 + nanos / 1e6;

function record(span: ReadableSpan): SpanRecord {
  const parent = parentOf(span);
  const exception = span.events.find((e) => e.name === 'exception')?.attributes?.['exception.message'];
  // Status codes of the API: 0 unset, 1 ok, 2 error (numbers, so the API is not loaded here).
  const code = span.status.code as number;
  return {
    spanId: span.spanContext().spanId,
    ...(parent ? { parentSpanId: parent } : {}),
    name: span.name,
    startMs: ms(span.startTime),
    ...(span.ended ? { endMs: ms(span.endTime) } : {}),
    attributes: span.attributes,
    status: code === 2 ? 'error' : code === 1 ? 'ok' : 'unset',
    ...(span.status.message ? { statusMessage: span.status.message } : {}),
    ...(typeof exception === 'string' && exception ? { exceptionMessage: exception } : {}),
  };
}

/**
 * For a process that registers its own tracer provider: add this to its span processors and
 * `otel: true` targets read their trials' spans from it (it keeps only those, in memory).
 */
export function otelSpanProcessor(): SpanProcessor {
  return trialSpans;
}
