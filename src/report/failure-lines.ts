import type { AssertionResult, CaseResult } from '../core/results-schema.js';
import { panelDetailLines } from './panel-lines.js';

/**
 * An assertion's message as reports show it. Messages start with the assertion type; a label (a
 * name that does not) is put in front so the reader sees which assertion it was.
 */
export function assertionText(a: Pick<AssertionResult, 'name' | 'kind' | 'message'>): string {
  return a.message.startsWith(a.kind) && a.name.startsWith(a.kind) ? a.message : `${a.name}: ${a.message}`;
}

/**
 * The distinct reasons a case did not pass (trial errors, failed assertions), plain text. A
 * panel-judged assertion's reason spans lines: its panel's aggregate and each member follow it.
 */
export function failureLines(r: CaseResult, max = 10): string[] {
  const out = new Set<string>();
  for (const t of r.trials) {
    // What Ctrl-C cut off is not a reason the case missed.
    if (t.verdict === 'interrupted') continue;
    if (t.error) out.add(`error: ${t.error}`);
    for (const a of t.assertions) {
      if (a.status === 'failed' || a.status === 'error') out.add([assertionText(a), ...panelDetailLines(a)].join('\n'));
    }
  }
  const lines = [...out];
  return lines.length > max ? [...lines.slice(0, max), `… ${lines.length - max} more`] : lines;
}

/** The run's closing word on `scored` cases: whether they failed it, and how to make them fail it. */
export function scoredNote(scored: number, strict: boolean): string {
  const cases = `${scored} case${scored === 1 ? '' : 's'} scored below a soft threshold`;
  return strict ? `${cases}: failures, since this run is strict (--strict or strict: true in the config).` : `${cases}: not failures; --strict (or strict: true in the config) fails them.`;
}
