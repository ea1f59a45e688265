import type { SpanRecord } from './otel-spans.js';

/**
 * A span of an OTLP JSON trace export, as the `otel: true` capture reads a live span (SpanRecord),
 * with the trace it belongs to.
 */
export interface ExportedSpan extends SpanRecord {
  traceId: string;
  /** The attributes of the resource that recorded it (`service.name`, ...), one object shared by its spans. */
  resource: Readonly<Record<string, unknown>>;
}

/**
 * The spans of an OTLP JSON trace export (`{ resourceSpans: [{ scopeSpans: [{ spans }] }] }`, the
 * protobuf JSON mapping of TracesData: ids in hex, 64-bit integers as strings, the status code as
 * a number or its enum name), as plain SpanRecords for stepsFromSpans. A file exporter writes one
 * such document per line, so a list of documents is read too. Undefined when `data` is not one.
 * (OpenTelemetry protocol docs: OTLP JSON encoding and trace.proto; read 2026-12-01.)
 */
export function spansFromOtlpJson(data: unknown): ExportedSpan[] | undefined {
  const docs = Array.isArray(data) ? data : [data];
  if (docs.length === 0 || !docs.every((d) => isObject(d) && Array.isArray(d['resourceSpans']))) return undefined;
  const spans: ExportedSpan[] = [];
  for (const doc of docs as Array<{ resourceSpans: unknown[] }>) {
    for (const rs of doc.resourceSpans) {
      const resource = attributes(isObject(rs) && isObject(rs['resource']) ? rs['resource']['attributes'] : undefined);
      for (const ss of arrayAt(rs, 'scopeSpans')) {
        for (const s of arrayAt(ss, 'spans')) {
          const span = spanRecord(s, resource);
          if (span) spans.push(span);
        }
      }
    }
  }
  return spans;
}

function spanRecord(s: unknown, resource: Readonly<Record<string, unknown>>): ExportedSpan | undefined {
  if (!isObject(s) || typeof s['spanId'] !== 'string' || typeof s['traceId'] !== 'string') return undefined;
  const startMs = nanosToMs(s['startTimeUnixNano']) ?? 0;
  const endMs = nanosToMs(s['endTimeUnixNano']);
  const status = isObject(s['status']) ? s['status'] : {};
  const exception = arrayAt(s, 'events')
    .filter(isObject)
    .find((e) => e['name'] === 'exception');
  const exceptionMessage = exception ? attributes(exception['attributes'])['exception.message'] : undefined;
  const message = typeof status['message'] === 'string' && status['message'] ? status['message'] : undefined;
  return {
    traceId: s['traceId'],
    resource,
    spanId: s['spanId'],
    ...(typeof s['parentSpanId'] === 'string' && s['parentSpanId'] ? { parentSpanId: s['parentSpanId'] } : {}),
    name: typeof s['name'] === 'string' ? s['name'] : '',
    startMs,
    // An export holds ended spans; a zero end time is one the exporter did not know.
    ...(endMs ? { endMs } : {}),
    attributes: attributes(s['attributes']),
    status: statusOf(status['code']),
    ...(message ? { statusMessage: message } : {}),
    ...(typeof exceptionMessage === 'string' && exceptionMessage ? { exceptionMessage } : {}),
  };
}

/** Nesting of arrays and kvlists kept in an attribute value; deeper is cut to TOO_DEEP (a crafted file must not overflow the stack). */
export const MAX_VALUE_DEPTH = 64;
export const TOO_DEEP = '[nested too deep]';

/**
 * `[{ key, value: AnyValue }]` as a plain record. Keys are data: one named `__proto__` is an own
 * property like any other (defined, not assigned, so it cannot set the record's prototype).
 */
function attributes(list: unknown, depth = 0): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (!Array.isArray(list)) return out;
  for (const kv of list) {
    if (isObject(kv) && typeof kv['key'] === 'string') Object.defineProperty(out, kv['key'], { value: anyValue(kv['value'], depth), enumerable: true, writable: true, configurable: true });
  }
  return out;
}

/** An OTLP AnyValue as the JS value it holds (a kvlist as an object, an array as an array). */
function anyValue(v: unknown, depth: number): unknown {
  if (!isObject(v)) return undefined;
  if (depth >= MAX_VALUE_DEPTH && (isObject(v['arrayValue']) || isObject(v['kvlistValue']))) return TOO_DEEP;
  if ('stringValue' in v) return v['stringValue'];
  if ('boolValue' in v) return v['boolValue'];
  if ('intValue' in v) return Number(v['intValue']);
  if ('doubleValue' in v) return Number(v['doubleValue']);
  if (isObject(v['arrayValue'])) return arrayAt(v['arrayValue'], 'values').map((item) => anyValue(item, depth + 1));
  if (isObject(v['kvlistValue'])) return attributes(v['kvlistValue']['values'], depth + 1);
  if ('bytesValue' in v) return v['bytesValue'];
  return undefined;
}

/** 0 unset, 1 ok, 2 error; the enum's name is accepted too. */
function statusOf(code: unknown): SpanRecord['status'] {
  if (code === 2 || code === 'STATUS_CODE_ERROR') return 'error';
  if (code === 1 || code === 'STATUS_CODE_OK') return 'ok';
  return 'unset';
}

/** Nanoseconds since the epoch (a string past 2^53) in milliseconds, kept to the microsecond. */
function nanosToMs(v: unknown): number | undefined {
  if (typeof v === 'number') return Number.isFinite(v) ? v / 1e6 : undefined;
  if (typeof v !== 'string' || !/^\d+$/.test(v)) return undefined;
  return Number(BigInt(v) / 1000n) / 1000;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function arrayAt(o: unknown, key: string): unknown[] {
  const v = isObject(o) ? o[key] : undefined;
  return Array.isArray(v) ? v : [];
}
