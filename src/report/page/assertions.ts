// One assertion's result in a trial: status, score, message, reason, the judge and its evidence.
import { add, el } from './dom';
import type { Fields } from './fields';
import { usageLine } from './format';
import type { Assertion } from './types';

export function assertion(parent: Node, a: Assertion, fields: Fields): void {
  const box = add(parent, el('div', 'assertion ' + a.status));
  const top = add(box, el('div', 'label'));
  add(top, el('span', 'verdict ' + a.status, a.status));
  add(top, el('span', null, ' ' + a.name + ' (' + a.kind + ', ' + a.severity + (a.turn ? ', turn ' + a.turn : '') + ')'));
  fields.facts(box, [
    // On the author's scale when it was 1..10 (7/10), as the terminal shows it.
    [
      'Score',
      a.scale
        ? String(+(a.score * 10).toFixed(1)) + '/10 (min ' + String(+(a.threshold * 10).toFixed(1)) + '/10, weight ' + a.weight + ')'
        : a.score.toFixed(3) + ' (threshold ' + a.threshold + ', weight ' + a.weight + ')',
    ],
    ['Message', a.message],
    ['Reason', a.reason],
    ['Choice', a.choice],
    ['Judge', a.judge ? a.judge.provider + ':' + a.judge.model + (a.judge.cached ? ' (cached)' : '') + ', ' + usageLine(a.judge.usage) : ''],
    ['Position', a.positionInconsistent ? 'inconsistent across orderings' : ''],
  ]);
  if (a.evidence && a.evidence.length) {
    const ul = add(box, el('ul', 'evidence'));
    a.evidence.forEach((e) => add(ul, el('li', null, fields.plain(e))));
  }
  if (a.dimensions) fields.block(box, 'Dimensions', a.dimensions, 'dims');
}
