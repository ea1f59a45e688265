import { spansFromOtlpJson, type ExportedSpan } from '../adapters/otlp-json.js';

/**
 * What a file of recorded agent runs holds, told from its text: an OTLP JSON trace export (one
 * document, or one per line as a file exporter writes them), an agent-evals results document, JSONL
 * trace lines (`{input | messages, reply, ...}` per line), or none of these (`why`: the line that is not
 * JSON, or empty when it is JSON of another shape). `agent-evals import` and
 * `agent-evals score` both read files through it.
 */
export type RecordedData = { format: 'otlp'; spans: ExportedSpan[] } | { format: 'results'; data: unknown } | { format: 'lines' } | { format: 'unknown'; why: string };

export function recordedData(text: string): RecordedData {
  const read = jsonDocuments(text);
  if ('data' in read) {
    const spans = spansFromOtlpJson(read.data);
    if (spans) return { format: 'otlp', spans };
    if (isResultsDocument(read.data)) return { format: 'results', data: read.data };
  }
  // The first line decides, so a JSONL file with a broken line later is read as one and that line named.
  if (isTraceLine(firstLine(text))) return { format: 'lines' };
  return { format: 'unknown', why: 'data' in read ? '' : read.badLine > 1 ? `line ${read.badLine} is not JSON` : 'it is not JSON' };
}

/** The file's JSON: one document, or one per line; else the first line that is not JSON. */
function jsonDocuments(text: string): { data: unknown } | { badLine: number } {
  try {
    return { data: JSON.parse(text) as unknown };
  } catch {
    const data: unknown[] = [];
    for (const [i, line] of text.split('\n').entries()) {
      if (!line.trim()) continue;
      try {
        data.push(JSON.parse(line) as unknown);
      } catch {
        return { badLine: i + 1 };
      }
    }
    return { data };
  }
}

/** A results document names its tool or carries a schema version (what `parseResults` then checks in full). */
function isResultsDocument(data: unknown): boolean {
  if (!isObject(data)) return false;
  const tool = data['tool'];
  return (isObject(tool) && tool['name'] === 'agent-evals') || data['schemaVersion'] !== undefined;
}

function firstLine(text: string): unknown {
  const line = text.split('\n').find((l) => l.trim());
  if (line === undefined) return undefined;
  try {
    return JSON.parse(line) as unknown;
  } catch {
    return undefined;
  }
}

/** An object with a trace line's own fields (trace-lines.ts checks the rest, naming the line). */
const isTraceLine = (v: unknown) => isObject(v) && ('reply' in v || 'input' in v || 'messages' in v);

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
