// The case list: regressions first, then plan order; a filter box; rows added a page at a time, and a
// case's body (facts and trials) built only when it is opened, so 10,000 trials open as fast as ten.
import { add, bar, el } from './dom';
import type { Fields } from './fields';
import { usageLine } from './format';
import { trialRow } from './trial';
import type { CaseChange, CaseResult, ResultsDoc } from './types';

/** Rows added per page (and per "Show more"). */
const PAGE = 200;

export function renderCaseList(app: HTMLElement, doc: ResultsDoc, keys: string[], changes: Record<string, CaseChange>, fields: Fields): void {
  const caseAt = (i: number): CaseResult => doc.cases[i] as CaseResult;
  const keyAt = (i: number): string => keys[i] as string;
  const order = doc.cases.map((_, i) => i);
  const regressed = (i: number): number => {
    const c = changes[keyAt(i)];
    return c && c.kind === 'regressed' ? 0 : 1;
  };
  order.sort((a, b) => regressed(a) - regressed(b) || a - b);

  const tools = add(app, el('div', 'tools'));
  const filter = add(tools, el('input'));
  filter.type = 'search';
  filter.placeholder = 'Filter cases (key, file, verdict, tag)';
  filter.setAttribute('aria-label', 'Filter cases');
  const count = add(tools, el('span', 'count'));
  const list = add(app, el('div', 'cases'));
  const more = add(app, el('button', 'more', 'Show more'));
  more.type = 'button';
  let shown: number[] = [];
  let next = 0;

  const matches = (i: number, q: string): boolean => {
    if (!q) return true;
    const c = caseAt(i);
    let hay = [keyAt(i), c.file, c.verdict].concat(c.tags).join(' ').toLowerCase();
    const ch = changes[keyAt(i)];
    // 'judge changed' finds judge-changed, as the terminal names it.
    if (ch) hay += ' ' + ch.kind + ' ' + ch.kind.split('-').join(' ');
    return hay.indexOf(q) !== -1;
  };
  const renderMore = (): void => {
    const stop = Math.min(shown.length, next + PAGE);
    for (; next < stop; next++) add(list, caseRow(shown[next] as number));
    more.hidden = next >= shown.length;
  };
  const refresh = (): void => {
    const q = filter.value.trim().toLowerCase();
    shown = order.filter((i) => matches(i, q));
    next = 0;
    list.textContent = '';
    count.textContent = shown.length + ' of ' + doc.cases.length + ' cases';
    renderMore();
  };
  const caseRow = (i: number): HTMLDetailsElement => caseSummaryRow(caseAt(i), keyAt(i), changes[keyAt(i)], fields);

  filter.addEventListener('input', refresh);
  more.addEventListener('click', renderMore);
  refresh();
}

function caseSummaryRow(c: CaseResult, key: string, ch: CaseChange | undefined, fields: Fields): HTMLDetailsElement {
  const row = el('details', 'case ' + c.verdict);
  const sum = add(row, el('summary'));
  add(sum, el('span', 'verdict ' + c.verdict, c.verdict));
  if (ch && ch.kind !== 'unchanged') add(sum, el('span', 'change ' + ch.kind, ch.kind));
  if (c.judgeNoise && c.judgeNoise.withinNoise) add(sum, el('span', 'change noise', 'within judge noise'));
  const je = ch && ch.judgeEffect;
  if (je && je.direction !== 'none') add(sum, el('span', 'change judge-' + je.direction, 'judge ' + je.direction));
  add(sum, el('span', 'key', key));
  const ran = c.passRate ? c.passRate.trials : c.trials.filter((x) => x.verdict !== 'interrupted').length;
  add(sum, bar(ran ? c.passed / ran : 0, c.verdict));
  add(sum, el('span', 'rate', c.passed + '/' + ran + ' passed (needed ' + c.required + ')'));
  add(sum, el('span', 'score', 'score ' + c.score.mean.toFixed(3)));
  let built = false;
  row.addEventListener('toggle', () => {
    if (!row.open || built) return;
    built = true;
    const body = add(row, el('div', 'case-body'));
    fields.facts(body, [
      ['File', c.file + (c.line ? ':' + c.line : '')],
      ['Tags', c.tags.join(', ')],
      [je ? 'Agent effect' : 'Change', ch ? changeLine(ch) : ''],
      ['Judge effect', je ? judgeEffectLine(ch) : ''],
      ['Not run', c.notRun ? c.notRun + ' (' + (c.notRunReason || '') + ')' : ''],
      ['Tool tape', tapeNotes(c)],
      ['Judge noise', c.judgeNoise ? judgeNoiseLine(c) : ''],
      ['Adaptive', c.adaptive ? c.adaptive.used + ' of ' + c.adaptive.min + '..' + c.adaptive.max + ' trials, stopped: ' + c.adaptive.stoppedBy : ''],
      ['Target usage', usageLine(c.usage.target)],
      ['Judge usage', usageLine(c.usage.judge)],
    ]);
    c.trials.forEach((tr) => add(body, trialRow(c, tr, fields)));
  });
  return row;
}

/** Each trial whose tool tape diverged: its number and what diverged. */
function tapeNotes(c: CaseResult): string {
  const notes: string[] = [];
  c.trials.forEach((x) => {
    const d = x.toolTape && x.toolTape.diverged;
    if (d) notes.push('trial ' + (x.index + 1) + ': ' + d.message);
  });
  return notes.join('; ');
}

/** The comparison's word on a case: its kind, the counts under --rejudge, its reason and p-value. */
function changeLine(ch: CaseChange): string {
  const je = ch.judgeEffect;
  return (
    ch.kind +
    (je && ch.base && ch.head ? ' ' + ch.base.passed + '/' + ch.base.run + ' \u2192 ' + ch.head.passed + '/' + ch.head.run : '') +
    (ch.reason ? ': ' + ch.reason : '') +
    (ch.pValue !== undefined ? ' (p=' + ch.pValue.toFixed(4) + ')' : '')
  );
}

/** --rejudge: how the judge alone moved the case (shown, never counted). */
function judgeEffectLine(ch: CaseChange | undefined): string {
  const je = ch && ch.judgeEffect;
  if (!je) return '';
  return (
    je.direction +
    ' ' +
    je.recorded.passed +
    '/' +
    je.recorded.run +
    ' recorded \u2192 ' +
    je.rejudged.passed +
    '/' +
    je.rejudged.run +
    ' re-judged' +
    (je.reason ? ': ' + je.reason : '') +
    (je.pValue !== undefined ? ' (p=' + je.pValue.toFixed(4) + ')' : '') +
    (je.judgeChanges && je.judgeChanges.length ? '; ' + je.judgeChanges.join('; ') : '') +
    ', not counted'
  );
}

function judgeNoiseLine(c: CaseResult): string {
  const n = c.judgeNoise;
  if (!n) return '';
  return (
    n.assertions.map((a) => a.name + ': flipped ' + a.flips + ' of ' + a.reasks + ' re-asks, score sd ' + a.scoreStddev.toFixed(2) + ', range ' + a.scoreRange.toFixed(2)).join('; ') +
    (n.withinNoise ? ' (the miss is within judge noise)' : '')
  );
}
