// The run summary's notes on judge panels and tool allowlists, as the terminal's closing block has them:
// each panel's agreement over the run (Fleiss' κ), and each tool called outside its allowlist with the
// cases that called it. Tool names are the agent's text: set as text, never markup.
import { add, el } from './dom';
import type { Fact, Fields } from './fields';
import type { Summary } from './types';

/** A `Judge panel` fact per panel: its members and their agreement over the run. */
export function panelFacts(s: Summary, fields: Fields): Fact[] {
  return (s.panels || []).map((p): Fact => [
    'Judge panel',
    p.judges.map((j) => fields.plain(j)).join(', ') +
      ": Fleiss' \u03ba " +
      (p.kappa === null ? 'undefined (one verdict throughout)' : p.kappa.toFixed(2)) +
      ' over ' +
      p.items +
      ' judged assertion' +
      (p.items === 1 ? '' : 's'),
  ]);
}

/** A line per tool called outside its allowlist, marked as a failure (each such call failed its trial). */
export function renderOutsideAllowlist(head: HTMLElement, s: Summary, fields: Fields): void {
  (s.toolsOutsideAllowlist || []).forEach((o) =>
    add(head, el('p', 'run-failure outside-allowlist', 'Outside allowlist: ' + fields.plain(o.tool) + ' (' + o.cases.map((c) => fields.plain(c)).join(', ') + ')')),
  );
}
