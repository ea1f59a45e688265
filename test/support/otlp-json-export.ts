/**
 * Spans the real OpenTelemetry SDK records in memory, written as an OTLP JSON file exporter writes
 * them: the ExportTraceServiceRequest of `@opentelemetry/otlp-transformer`'s JSON serializer (the
 * OTLP/HTTP JSON body), one document.
 */
import { JsonTraceSerializer } from '@opentelemetry/otlp-transformer';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';

export function memoryTracing(): { provider: BasicTracerProvider; exporter: InMemorySpanExporter; otlpJson: () => string } {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  return { provider, exporter, otlpJson: () => new TextDecoder().decode(JsonTraceSerializer.serializeRequest(exporter.getFinishedSpans())) };
}
