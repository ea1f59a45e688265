import { ALLOWLIST_TYPE } from '../../assertions/tool-allowlist.js';
import type { CaseResult, Summary } from '../../core/results-schema.js';
import { caseKey } from '../../core/matrix.js';

type Outside = NonNullable<Summary['toolsOutsideAllowlist']>;

/** Every tool called outside its allowlist over a run, with the cases that called it (in run order). */
export class AllowlistTotals {
  private readonly byTool = new Map<string, Set<string>>();

  addCase(c: CaseResult): void {
    for (const t of c.trials) {
      for (const a of t.assertions) {
        if (a.kind !== ALLOWLIST_TYPE || a.status !== 'failed') continue;
        for (const tool of a.evidence ?? []) {
          const cases = this.byTool.get(tool) ?? new Set<string>();
          cases.add(caseKey(c));
          this.byTool.set(tool, cases);
        }
      }
    }
  }

  /** Absent when no tool was called outside an allowlist. */
  result(): { toolsOutsideAllowlist?: Outside } {
    if (this.byTool.size === 0) return {};
    return { toolsOutsideAllowlist: [...this.byTool].map(([tool, cases]) => ({ tool, cases: [...cases] })) };
  }
}
