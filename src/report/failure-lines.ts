import type { CaseResult } from './results-schema.js';

/** The distinct reasons a case did not pass (trial errors, failed assertions), plain text. */
export function failureLines(r: CaseResult, max = 10): string[] {
  const out = new Set<string>();
  for (const t of r.trials) {
    if (t.error) out.add(`error: ${t.error}`);
    for (const a of t.assertions) {
      if (a.status === 'failed' || a.status === 'error') out.add(a.message.startsWith(a.kind) && a.name.startsWith(a.kind) ? a.message : `${a.name}: ${a.message}`);
    }
  }
  const lines = [...out];
  return lines.length > max ? [...lines.slice(0, max), `… ${lines.length - max} more`] : lines;
}

export function caseHeadline(r: CaseResult): string {
  return `${r.suite}/${r.id}: ${r.verdict} ${r.passed}/${r.planned} (needed ${r.required})`;
}
