/**
 * Production traces to score (issue 47): 20 runs of the AI SDK order agent (ai-sdk-order-agent.ts,
 * AI SDK telemetry through the real OpenTelemetry SDK) against the fake OpenAI server, written as
 * one OTLP JSON export. Run `k` (1..20) is asked RECORDED_INPUT(k), looks order A-k up, tries its
 * refund (the tool throws) and answers; its telemetry carries `functionId: order-agent` and the
 * metadata `route` (refunds for odd k, orders for even) and `tier` (gold when k is a multiple of 5, else
 * free). The export is then dated as production would have it: run k's spans are moved (keeping their
 * lengths) to start at RECORDED_START plus k hours, and the resource's `service.name` is set, as a
 * service's SDK would, so `--since`/`--until` and `where:` tests know what to expect.
 */
import { writeFileSync } from 'node:fs';
import { context } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { expectedTrial, orderScript, runOrderAgent } from './ai-sdk-order-agent.js';
import { startFakeOpenAI } from './fake-openai.js';
import { memoryTracing } from './otlp-json-export.js';

export const RECORDED_RUNS = 20;
export const RECORDED_SERVICE = 'order-service';
export const RECORDED_AGENT = 'order-agent';
/** Run 1 started an hour after this, run k k hours after. */
export const RECORDED_START = Date.parse('2026-11-30T00:00:00.000Z');

export const RECORDED_INPUT = (k: number) => `Where is order A-${k}? Please refund it.`;

/** What run `k` of the export holds: ai-sdk-order-agent.ts's expectations, with its input, start and metadata. */
export function recordedRun(k: number) {
  return {
    ...expectedTrial(k),
    /** The agent appends the trial number to the prompt: the fake answers each run by it. */
    input: `${RECORDED_INPUT(k)} (trial ${k})`,
    startedAt: new Date(RECORDED_START + k * 3_600_000).toISOString(),
    metadata: { route: k % 2 === 1 ? 'refunds' : 'orders', tier: k % 5 === 0 ? 'gold' : 'free' },
  };
}

/**
 * Runs the agent RECORDED_RUNS times and writes the OTLP JSON export to `path`. With `baseURL` it
 * talks to that fake (which must answer `orderScript`); without, it starts and stops one of its own.
 * Returns each run's trace id, by k.
 */
export async function writeRecordedOtlp(path: string, baseURL?: string): Promise<Map<number, string>> {
  const fake = baseURL === undefined ? await startFakeOpenAI({ script: orderScript }) : undefined;
  const url = baseURL ?? fake!.url;
  const tracing = memoryTracing();
  const tracer = tracing.provider.getTracer('order-agent');
  const traceOfRun = new Map<number, string>();
  // A run's spans share a trace only through an async context: registered for the runs (unless one is already), removed after.
  const manager = new AsyncLocalStorageContextManager().enable();
  const ours = context.setGlobalContextManager(manager);
  if (!ours) manager.disable();
  try {
    for (let k = 1; k <= RECORDED_RUNS; k++) {
      const before = new Set(tracing.exporter.getFinishedSpans().map((s) => s.spanContext().traceId));
      const result = await runOrderAgent(url, RECORDED_INPUT(k), k, { recorded: { tracer, functionId: RECORDED_AGENT, metadata: recordedRun(k).metadata } });
      if (result.text !== recordedRun(k).reply) throw new Error(`run ${k} answered ${JSON.stringify(result.text)}`);
      const traceId = tracing.exporter
        .getFinishedSpans()
        .map((s) => s.spanContext().traceId)
        .find((id) => !before.has(id));
      if (traceId === undefined) throw new Error(`run ${k} recorded no trace`);
      traceOfRun.set(k, traceId);
    }
  } finally {
    if (ours) context.disable();
    await fake?.close();
  }
  await tracing.provider.forceFlush();
  const doc = JSON.parse(tracing.otlpJson()) as OtlpDoc;
  const runOfTrace = new Map([...traceOfRun].map(([k, id]) => [id, k]));
  dated(doc, runOfTrace);
  writeFileSync(path, JSON.stringify(doc));
  return traceOfRun;
}

interface OtlpDoc {
  resourceSpans: Array<{
    resource?: { attributes?: Array<{ key: string; value: { stringValue?: string } }> };
    scopeSpans: Array<{ spans: Array<{ traceId: string; startTimeUnixNano: string | number; endTimeUnixNano: string | number }> }>;
  }>;
}

/** Each run's spans moved to start at its hour (their lengths and order kept); the resource named as the service. */
function dated(doc: OtlpDoc, runOfTrace: ReadonlyMap<string, number>): void {
  const spans = doc.resourceSpans.flatMap((rs) => rs.scopeSpans.flatMap((ss) => ss.spans));
  const first = new Map<string, bigint>();
  for (const s of spans) {
    const start = BigInt(s.startTimeUnixNano);
    if (!first.has(s.traceId) || start < first.get(s.traceId)!) first.set(s.traceId, start);
  }
  for (const s of spans) {
    const k = runOfTrace.get(s.traceId);
    if (k === undefined) throw new Error(`span of trace ${s.traceId} belongs to no run`);
    const shift = BigInt(RECORDED_START + k * 3_600_000) * 1_000_000n - first.get(s.traceId)!;
    s.startTimeUnixNano = String(BigInt(s.startTimeUnixNano) + shift);
    s.endTimeUnixNano = String(BigInt(s.endTimeUnixNano) + shift);
  }
  for (const rs of doc.resourceSpans) {
    const attributes = (rs.resource ??= {}).attributes ?? [];
    rs.resource.attributes = [...attributes.filter((a) => a.key !== 'service.name'), { key: 'service.name', value: { stringValue: RECORDED_SERVICE } }];
  }
}
