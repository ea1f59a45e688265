import type { Summary } from '../core/results-schema.js';

/** `Outside allowlist: delete_file (billing/refund, billing/cancel)`, one line per tool; none when every call was allowed. */
export function allowlistLines(summary: Pick<Summary, 'toolsOutsideAllowlist'>): string[] {
  return (summary.toolsOutsideAllowlist ?? []).map((o) => `Outside allowlist: ${o.tool} (${o.cases.join(', ')})`);
}
