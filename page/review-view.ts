// The review page's nodes: the controls bar, one trial, the key legend. Every text goes in by
// textContent (dom.ts), so agent text stays text.
import { add, el } from './dom';
import { KEY_LEGEND, type ReviewAction } from './review-keys';
import type { ReviewItem, ReviewLabel } from '../src/report/review-items';

/** The controls: pass and fail, a button per score, previous and next, and the save status. */
export interface Controls {
  verdicts: Record<'pass' | 'fail', HTMLButtonElement>;
  scores: HTMLButtonElement[];
  status: HTMLElement;
}

/** Builds the controls bar; each button does what its key does. */
export function controls(parent: HTMLElement, scale: number, act: (a: ReviewAction) => void): Controls {
  const bar = add(parent, el('div', 'controls'));
  const button = (text: string, title: string, action: ReviewAction): HTMLButtonElement => {
    const b = add(bar, el('button', null, text));
    b.type = 'button';
    b.title = title;
    b.addEventListener('click', () => act(action));
    return b;
  };
  const verdicts = { pass: button('Pass', 'pass (p)', { kind: 'verdict', verdict: 'pass' }), fail: button('Fail', 'fail (f)', { kind: 'verdict', verdict: 'fail' }) };
  add(bar, el('span', 'sep'));
  const scores: HTMLButtonElement[] = [];
  for (let s = 1; s <= scale; s++) scores.push(button(String(s), 'score ' + s + ' (' + (s % 10) + ')', { kind: 'score', score: s }));
  add(bar, el('span', 'sep'));
  button('Previous', 'previous trial (k)', { kind: 'previous' });
  button('Next', 'next trial (j)', { kind: 'next' });
  const status = add(bar, el('span', 'status'));
  status.id = 'status';
  return { verdicts, scores, status };
}

/** Marks the buttons of the trial's label as on. */
export function showLabel(c: Controls, label: ReviewLabel): void {
  c.verdicts.pass.classList.toggle('on', label.humanVerdict === 'pass');
  c.verdicts.fail.classList.toggle('on', label.humanVerdict === 'fail');
  c.scores.forEach((b, i) => b.classList.toggle('on', label.humanScore === i + 1));
}

/** One trial: its key, the run's verdict, what was asked, the reference, the reply and the run's checks. */
export function trialView(parent: HTMLElement, item: ReviewItem, label: ReviewLabel): void {
  parent.textContent = '';
  const head = add(parent, el('div', 'trial-head'));
  add(head, el('span', 'key', item.key + ' · trial ' + item.trial));
  add(head, el('span', 'verdict ' + item.verdict, 'run: ' + item.verdict + ' ' + item.score.toFixed(2)));
  const human = add(head, el('span', 'verdict human ' + (label.humanVerdict || ''), humanText(label)));
  human.id = 'human';
  block(parent, 'Input', item.input, 'input');
  block(parent, 'Reference (expected answer)', item.reference, 'reference');
  block(parent, 'Instructions', item.instructions, 'instructions');
  block(parent, 'Reply', item.output, 'output');
  if (item.checks.length) {
    const ul = add(parent, el('ul', 'checks'));
    item.checks.forEach((c) => add(ul, el('li', null, c)));
  }
}

/** The human's label in words. */
function humanText(label: ReviewLabel): string {
  if (!label.humanVerdict && label.humanScore === undefined) return 'unlabelled';
  return 'you: ' + [label.humanVerdict || '', label.humanScore !== undefined ? 'score ' + label.humanScore : ''].filter(Boolean).join(', ');
}

function block(parent: HTMLElement, name: string, text: string | undefined, cls: string): void {
  if (text === undefined || text === '') return;
  const box = add(parent, el('div', 'block ' + cls));
  add(box, el('div', 'label', name));
  add(box, el('pre', null, text));
}

/** The key legend under the trial. */
export function legend(parent: HTMLElement): void {
  const p = add(parent, el('p', 'legend'));
  KEY_LEGEND.forEach(([keys, what], n) => {
    if (n) add(p, document.createTextNode(' · '));
    keys.forEach((k) => add(p, el('kbd', null, k)));
    add(p, document.createTextNode(' ' + what));
  });
}
