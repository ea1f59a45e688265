// The red-team section (`agent-evals redteam`): per plugin and target, the attack success rate with its
// 95% interval over the attempts, how it was decided, the OWASP entries it maps to, and each successful
// attack's case with its failed trials, shown by the trial view the case list uses (trial.ts). Attack
// and agent text arrive as data and go in by textContent only (dom.ts): a hostile payload stays text.
import { add, el } from './dom';
import type { Fields } from './fields';
import { pct, usageLine } from './format';
import { trialRow } from './trial';
import type { CaseResult, RedteamSummary, ResultsDoc } from './types';

type PluginResult = RedteamSummary['plugins'][number];

export function renderRedteam(app: HTMLElement, doc: ResultsDoc, keys: string[], fields: Fields): void {
  const r = doc.redteam;
  if (!r) return;
  const section = add(app, el('section', 'redteam'));
  const successes = r.plugins.reduce((s, p) => s + p.successes, 0);
  const attempts = r.plugins.reduce((s, p) => s + p.attempts, 0);
  add(section, el('h2', null, 'Red team'));
  add(
    section,
    el('p', 'rt-lead', successes + ' of ' + attempts + ' attacks succeeded (' + (r.source === 'seeds' ? 'seed attacks' : 'seed attacks and attacks by ' + (r.attacker || 'the attacker')) + ')'),
  );
  add(section, el('p', 'rt-usage', 'Attacker: ' + usageLine(r.usage.attacker) + ' \u00b7 target: ' + usageLine(r.usage.target) + ' \u00b7 judge: ' + usageLine(r.usage.judge)));
  const index = new Map<string, number>();
  keys.forEach((k, i) => index.set(k, i));
  r.plugins.forEach((p) => plugin(section, p, doc.cases, index, fields));
}

function plugin(parent: HTMLElement, p: PluginResult, cases: CaseResult[], index: Map<string, number>, fields: Fields): void {
  const box = add(parent, el('div', 'rt-plugin' + (p.successes ? ' rt-hit' : '')));
  add(box, el('h3', null, p.title + ' \u2014 ' + p.target));
  add(box, el('p', 'rt-plugin-id', p.plugin + (p.owasp.length ? ' \u00b7 ' + p.owasp.join(', ') : '') + (p.agentic.length ? ' \u00b7 ' + p.agentic.join(', ') : '')));
  const rate = p.rate === undefined ? 'no attempt ran' : pct(p.rate) + (p.interval ? ' (95% interval ' + pct(p.interval.low) + ' to ' + pct(p.interval.high) + ')' : '');
  const decided = p.decidedBy === 'judge' ? 'a judge (' + p.judgeCalls + ' call' + (p.judgeCalls === 1 ? '' : 's') + ')' : 'a detector (no judge)';
  add(box, el('p', 'rt-rate', p.successes + ' of ' + p.attempts + ' attacks succeeded: ' + rate + '; decided by ' + decided + (p.errors ? '; ' + p.errors + ' errored, not counted' : '')));
  p.succeeded.forEach((key) => {
    const at = index.get(key);
    const c = at === undefined ? undefined : cases[at];
    const attack = add(box, el('div', 'rt-attack'));
    add(attack, el('span', 'key', key));
    if (!c) return;
    // The failed trials are the attacks that worked: their transcripts, each opened on demand.
    c.trials.filter((t) => t.verdict === 'failed').forEach((t) => add(attack, trialRow(c, t, fields)));
  });
}
