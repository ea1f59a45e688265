import type { AssertionResult, PanelResult, Summary } from '../core/results-schema.js';
import { formatScore } from '../core/score-text.js';
import { oneLine } from './sanitize.js';

/** One line per panel member of a judged assertion: `a  0.90  passed  reason`, or its error. */
export function panelMemberLines(panel: PanelResult): string[] {
  return panel.members.map((m) => (m.score !== undefined ? `${m.judge}  ${m.score.toFixed(2)}  ${m.status}${m.reason ? `  ${m.reason}` : ''}` : `${m.judge}  error  ${m.error ?? ''}`));
}

/**
 * A panel-judged assertion's panel as the file reporters (JUnit, GitHub) show it under the failure:
 * the aggregate and its verdict, then each member on one line (reasons cut: they are the judges' text).
 * With a member error the aggregate is over the members that answered and is not the verdict.
 */
export function panelDetailLines(a: Pick<AssertionResult, 'panel' | 'score' | 'threshold' | 'scale' | 'status'>): string[] {
  const p = a.panel;
  if (!p) return [];
  const at = formatScore(a.threshold, a.scale);
  const aggregate = p.rest
    ? `panel ${p.aggregate} of the ${p.rest.members} members that answered: ${formatScore(p.rest.score, a.scale)} (${p.rest.status} at ${at}; not the verdict)`
    : `panel ${p.aggregate}: ${formatScore(a.score, a.scale)} (${a.status} at ${at})`;
  return [aggregate, ...panelMemberLines(p).map((line) => `  ${oneLine(line, 200)}`)];
}

/** The run summary's line for each judge panel: its members' agreement over the run. */
export function panelAgreementLines(panels: NonNullable<Summary['panels']>): string[] {
  return panels.map(
    (p) => `${p.judges.join(', ')}: Fleiss' κ ${p.kappa === null ? 'undefined (one verdict throughout)' : p.kappa.toFixed(2)} over ${p.items} judged assertion${p.items === 1 ? '' : 's'}`,
  );
}
