import { spansFromOtlpJson, type ExportedSpan } from '../adapters/otlp-json.js';

/**
 * What a file of recorded agent runs holds, told from its text: an OTLP JSON trace export (one
 * document, or one per line as a file exporter writes them), an agent-evals results document, JSONL
 * trace lines (`{input | messages, reply, ...}` per line), or none of these. `agent-evals import` and
 * `agent-evals score` both read files through it.
 */
export type RecordedData = { format: 'otlp'; spans: ExportedSpan[] } | { format: 'results'; data: unknown } | { format: 'lines' } | { format: 'unknown'; json: boolean };

export function recordedData(text: string): RecordedData {
  const data = jsonDocuments(text);
  if (data !== undefined) {
    const spans = spansFromOtlpJson(data);
    if (spans) return { format: 'otlp', spans };
    if (isResultsDocument(data)) return { format: 'results', data };
  }
  // The first line decides, so a JSONL file with a broken line later is read as one and that line named.
  if (isTraceLine(firstLine(text))) return { format: 'lines' };
  return { format: 'unknown', json: data !== undefined };
}

/** The file's JSON: one document, or one per line; undefined when it is neither. */
function jsonDocuments(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    try {
      return text
        .split('\n')
        .filter((l) => l.trim())
        .map((l) => JSON.parse(l) as unknown);
    } catch {
      return undefined;
    }
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
