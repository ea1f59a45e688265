// The case list: regressions first, then failures, then scored cases, then the rest, each group in
// plan order; a filter box; rows added a page at a time, and a case's body (facts and trials) built
// only when it is opened, so 10,000 trials open as fast as ten. Each row is a grid of fixed columns
// (verdict, key, pass-rate bar, counts, score) so the bars start at the same x down the page, with
// the case's first failure reason on a line of its own, cut to one line, whole in its title. The
// matrix grid's cells open a case here (the function renderCaseList returns).
import { caseSearch } from './case-search';
import { add, bar, el } from './dom';
import type { Fields } from './fields';
import { reducerText, usageLine } from './format';
import { emptyTally, judgeUsageLine, tallyJudgments } from './judge-usage';
import { pagedList } from './paged-list';
import { trialRow } from './trial';
import type { CaseChange, CaseResult, ResultsDoc } from './types';

/** Characters of a failure reason put on its row (the whole reason is the row's title). */
const REASON_CHARS = 300;
/** The list's groups, first to last: regressed, failed, scored, the rest. */
function group(c: CaseResult, ch: CaseChange | undefined): number {
  if (ch && ch.kind === 'regressed') return 0;
  return c.verdict === 'failed' ? 1 : c.verdict === 'scored' ? 2 : 3;
}

/** Rows added per page (and per "Show more"). */
const PAGE = 200;

/**
 * Renders the case list and returns `open(index)`, which brings the case at that index of the
 * results onto the page (adding pages; clearing the filter when it hides the case), opens it and
 * scrolls it into view.
 */
export function renderCaseList(app: HTMLElement, doc: ResultsDoc, keys: string[], changes: Record<string, CaseChange>, fields: Fields): (index: number) => void {
  const caseAt = (i: number): CaseResult => doc.cases[i] as CaseResult;
  const keyAt = (i: number): string => keys[i] as string;
  const order = doc.cases.map((_, i) => i);
  const groups = order.map((i) => group(caseAt(i), changes[keyAt(i)]));
  order.sort((a, b) => (groups[a] as number) - (groups[b] as number) || a - b);

  const tools = add(app, el('div', 'tools'));
  const filter = add(tools, el('input'));
  filter.type = 'search';
  filter.placeholder = 'Filter cases (key, file, verdict, tag, failure reason, input)';
  filter.setAttribute('aria-label', 'Filter cases');
  const count = add(tools, el('span', 'count'));
  const list = add(app, el('div', 'cases'));
  const more = add(app, el('button', 'more', 'Show more'));
  more.type = 'button';

  const search = caseSearch(doc.cases, keys, changes, fields);
  const caseRow = (i: number): HTMLDetailsElement => caseSummaryRow(caseAt(i), keyAt(i), changes[keyAt(i)], search.reason(i), fields);
  const show = pagedList(list, more, PAGE, caseRow);
  let shown: number[] = [];
  const refresh = (): void => {
    const q = filter.value.trim().toLowerCase();
    shown = order.filter((i) => search.matches(i, q));
    count.textContent = shown.length + ' of ' + doc.cases.length + ' cases';
    show(shown);
  };
  let revealed: HTMLElement | undefined;
  const open = (i: number): void => {
    let at = shown.indexOf(i);
    // Hidden by the filter: the filter is cleared, so the case is shown among all the others.
    if (at === -1 && filter.value) {
      filter.value = '';
      refresh();
      at = shown.indexOf(i);
    }
    const row = show.rowAt(at) as HTMLDetailsElement | undefined;
    if (!row) return;
    if (revealed) revealed.classList.remove('revealed');
    revealed = row;
    row.classList.add('revealed');
    row.open = true;
    row.scrollIntoView({ block: 'start' });
    const sum = row.querySelector('summary');
    if (sum) sum.focus({ preventScroll: true });
  };

  filter.addEventListener('input', refresh);
  refresh();
  return open;
}

function caseSummaryRow(c: CaseResult, key: string, ch: CaseChange | undefined, why: string, fields: Fields): HTMLDetailsElement {
  const row = el('details', 'case ' + c.verdict);
  const sum = add(row, el('summary'));
  add(sum, el('span', 'verdict ' + c.verdict, c.verdict));
  const name = add(sum, el('span', 'name'));
  add(name, el('span', 'key', key));
  if (ch && ch.kind !== 'unchanged') add(name, el('span', 'change ' + ch.kind, ch.kind));
  if (c.judgeNoise && c.judgeNoise.withinNoise) add(name, el('span', 'change noise', 'within judge noise'));
  // A scored trace (`agent-evals score`): which recorded run, and when, beside its key.
  if (c.scoredTrace) add(name, el('span', 'change trace', 'trace ' + c.scoredTrace.id + (c.scoredTrace.startedAt ? ' \u00b7 ' + c.scoredTrace.startedAt : '')));
  const je = ch && ch.judgeEffect;
  if (je && je.direction !== 'none') add(name, el('span', 'change judge-' + je.direction, 'judge ' + je.direction));
  const ran = c.passRate ? c.passRate.trials : c.trials.filter((x) => x.verdict !== 'interrupted').length;
  // No trial ran: an empty grey bar and no score, not a red bar and "score 0.000".
  add(sum, bar(ran ? c.passed / ran : 0, ran ? c.verdict : 'none'));
  add(sum, el('span', 'rate', c.passed + '/' + ran + ' passed (needed ' + c.required + ')' + (c.reducer ? ', ' + reducerText(c.reducer) : '')));
  add(sum, el('span', 'score', ran ? 'score ' + c.score.mean.toFixed(3) : 'no score'));
  if (why) {
    const line = add(sum, el('span', 'reason', why.length > REASON_CHARS ? why.slice(0, REASON_CHARS) + '\u2026' : why));
    line.title = why;
  }
  let built = false;
  row.addEventListener('toggle', () => {
    if (!row.open || built) return;
    built = true;
    const body = add(row, el('div', 'case-body'));
    fields.facts(body, [
      ['File', c.file + (c.line ? ':' + c.line : '')],
      ['Trace', c.scoredTrace ? c.scoredTrace.id + (c.scoredTrace.startedAt ? ', started ' + c.scoredTrace.startedAt : '') + ', read from ' + c.scoredTrace.source : ''],
      ['Tags', c.tags.join(', ')],
      [je ? 'Agent effect' : 'Change', ch ? changeLine(ch) : ''],
      ['Judge effect', je ? judgeEffectLine(ch) : ''],
      ['Not run', c.notRun ? c.notRun + ' (' + (c.notRunReason || '') + ')' : ''],
      ['Tool tape', tapeNotes(c)],
      ['Judge noise', c.judgeNoise ? judgeNoiseLine(c) : ''],
      ['Adaptive', c.adaptive ? c.adaptive.used + ' of ' + c.adaptive.min + '..' + c.adaptive.max + ' trials, stopped: ' + c.adaptive.stoppedBy : ''],
      ['Target usage', usageLine(c.usage.target)],
      [
        'Judge usage',
        judgeUsageLine(
          c.usage.judge,
          c.trials.reduce((t, x) => tallyJudgments(t, x.assertions), emptyTally()),
        ),
      ],
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
