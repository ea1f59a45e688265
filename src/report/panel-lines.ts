import type { PanelResult, Summary } from '../core/results-schema.js';

/** One line per panel member of a judged assertion: `a  0.90  passed  reason`, or its error. */
export function panelMemberLines(panel: PanelResult): string[] {
  return panel.members.map((m) => (m.score !== undefined ? `${m.judge}  ${m.score.toFixed(2)}  ${m.status}${m.reason ? `  ${m.reason}` : ''}` : `${m.judge}  error  ${m.error ?? ''}`));
}

/** The run summary's line for each judge panel: its members' agreement over the run. */
export function panelAgreementLines(panels: NonNullable<Summary['panels']>): string[] {
  return panels.map(
    (p) => `${p.judges.join(', ')}: Fleiss' κ ${p.kappa === null ? 'undefined (one verdict throughout)' : p.kappa.toFixed(2)} over ${p.items} judged assertion${p.items === 1 ? '' : 's'}`,
  );
}
