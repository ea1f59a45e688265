import type { CaseResult, Summary } from '../core/results-schema.js';
import { fleissKappa } from './fleiss.js';

type PanelAgreement = NonNullable<Summary['panels']>[number];

/**
 * Each judge panel's agreement over a run, fed one case at a time as the summary is built (only the
 * panels' pass counts are kept): every judged assertion a panel judged (every trial, every turn) is an
 * item, each member a rater putting it in pass or fail by its own verdict at the assertion's threshold.
 * Panels are told apart by their members, in order; an item where a member erred is left out (κ needs
 * every rater on every item).
 */
export function panelAgreementCollector(): { add(c: Pick<CaseResult, 'trials'>): void; agreements(): PanelAgreement[] } {
  const byPanel = new Map<string, { judges: string[]; items: number[][] }>();
  const add = (c: Pick<CaseResult, 'trials'>) => {
    for (const t of c.trials)
      for (const a of t.assertions) {
        const members = a.panel?.members;
        if (!members || members.some((m) => m.status === 'error')) continue;
        const judges = members.map((m) => m.judge);
        const key = JSON.stringify(judges);
        let panel = byPanel.get(key);
        if (!panel) byPanel.set(key, (panel = { judges, items: [] }));
        const passed = members.filter((m) => m.status === 'passed').length;
        panel.items.push([passed, members.length - passed]);
      }
  };
  return { add, agreements: () => [...byPanel.values()].map(({ judges, items }) => ({ judges, items: items.length, kappa: fleissKappa(items) })) };
}
