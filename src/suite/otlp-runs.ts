import { UserError } from '../core/errors.js';
import { SPAN_CONVENTIONS } from '../adapters/otel-conventions.js';
import { spanRuns, type SpanRuns } from '../adapters/otel-runs.js';
import type { ExportedSpan } from '../adapters/otlp-json.js';

/** The conventions read, for a command's help: `A, B, C or D`. */
export const conventionNames = () =>
  SPAN_CONVENTIONS.map((c) => c.name)
    .join(', ')
    .replace(/, ([^,]+)$/, ' or $1');

/**
 * The runs of an OTLP export's spans (otel-runs.ts). Spans of no convention agent-evals reads are bad
 * input naming the file, the conventions tried and what its first span held; `purpose` ends the
 * message (`nothing to import`).
 */
export function otlpRuns(spans: readonly ExportedSpan[], shown: string, purpose: string): SpanRuns {
  const read = spanRuns(spans);
  if (read.unknown) {
    const tried = SPAN_CONVENTIONS.map((c) => `${c.name}: ${c.keys}`).join('; ');
    throw new UserError(`holds spans of no convention agent-evals reads (tried ${tried}); ${firstSpan(spans)}: nothing to ${purpose}`, { file: shown });
  }
  return read;
}

/**
 * What the file's first span held, for a file of no known convention: its name and first attribute
 * keys, cut short. File text: the CLI prints a UserError's message through terminalSafe.
 */
function firstSpan(spans: readonly ExportedSpan[]): string {
  const span = spans[0]!;
  const keys = Object.keys(span.attributes);
  const cut = (text: string) => (text.length > 80 ? `${text.slice(0, 80)}…` : text);
  const shownKeys = keys.slice(0, 5).map(cut);
  const more = keys.length > 5 ? `, and ${keys.length - 5} more` : '';
  return `its first span is "${cut(span.name)}" with ${keys.length === 0 ? 'no attributes' : `attributes ${shownKeys.join(', ')}${more}`}`;
}
