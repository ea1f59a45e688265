// One assertion's result in a trial: status, score, message, reason, the judge and its evidence.
import { add, el } from './dom';
import type { Fields } from './fields';
import { usageLine } from './format';
import type { Assertion } from './types';

/** SKIPPED[a.skipped]: why a skipped assertion was not asked, in words. */
const SKIPPED: Record<string, string> = { 'gate-failed': 'a gate of its trial failed first' };

/**
 * The score on the author's scale when it was 1..10 (7/10), as the terminal shows it. A skipped or
 * erred assertion was never scored: its recorded 0 is no score, so it says so.
 */
function scoreLine(a: Assertion): string {
  if (a.status === 'skipped') return 'skipped, not scored' + (a.skipped ? ' (' + (SKIPPED[a.skipped] || a.skipped) + ')' : '');
  // An assertion that erred (a judge's invalid answer, a check that threw) recorded 0 without scoring.
  if (a.status === 'error') return 'not scored: the check erred (threshold ' + a.threshold + ')';
  return a.scale
    ? String(+(a.score * 10).toFixed(1)) + '/10 (min ' + String(+(a.threshold * 10).toFixed(1)) + '/10, weight ' + a.weight + ')'
    : a.score.toFixed(3) + ' (threshold ' + a.threshold + ', weight ' + a.weight + ')';
}

export function assertion(parent: Node, a: Assertion, fields: Fields): void {
  const box = add(parent, el('div', 'assertion ' + a.status));
  const top = add(box, el('div', 'label'));
  add(top, el('span', 'verdict ' + a.status, a.status));
  add(top, el('span', null, ' ' + a.name + ' (' + a.kind + ', ' + a.severity + (a.turn ? ', turn ' + a.turn : '') + ')'));
  fields.facts(box, [
    ['Score', scoreLine(a)],
    ['Message', a.message],
    ['Reason', a.reason],
    ['Choice', a.choice],
    // A cached answer's usage is zero by design: say it came from the cache and what it saved.
    [
      'Judge',
      a.judge
        ? a.judge.provider +
          ':' +
          a.judge.model +
          (a.judge.cached ? ', from cache (' + (a.judge.savedTokens || 0).toLocaleString('en-US') + ' tokens not spent again)' : ', ' + usageLine(a.judge.usage))
        : '',
    ],
    ['Position', a.positionInconsistent ? 'inconsistent across orderings' : ''],
  ]);
  if (a.evidence && a.evidence.length) {
    const ul = add(box, el('ul', 'evidence'));
    a.evidence.forEach((e) => add(ul, el('li', null, fields.plain(e))));
  }
  if (a.dimensions) fields.block(box, 'Dimensions', a.dimensions, 'dims');
  if (a.panel) panelMembers(box, a.panel, fields);
}

/** A panel's members, a line each: who, score and own verdict, and reason (or the error). */
function panelMembers(box: Node, panel: NonNullable<Assertion['panel']>, fields: Fields): void {
  add(box, el('div', 'label', 'Panel (' + panel.aggregate + ')'));
  const ul = add(box, el('ul', 'panel'));
  panel.members.forEach((m) => {
    const head = m.judge + ' ' + (m.score !== undefined ? m.score.toFixed(2) + ' ' : '') + m.status;
    const why = m.status === 'error' ? m.error : m.reason;
    add(ul, el('li', 'panel-member ' + m.status, head + (why ? ': ' + fields.plain(why) : '')));
  });
}
