// "Before and after": for a compared run, each moved case (regressed, improved, judge-changed, tools-changed;
// regressions first) with the baseline's and this run's replies side by side, the changed words marked,
// the edit between their tool-call sequences and the assertions' reasons side by side. The baseline's
// side comes from the data block's `baseline` (read from the baseline file by the writer); without it
// the section says why and shows this run's side. A case's body is built only when it is opened.
import { add, el } from './dom';
import type { Fields } from './fields';
import { toolEdit, type ToolOp } from './tool-edit';
import { usageLine } from './format';
import type { Assertion, BaselineCase, BaselineView, CaseChange, CaseResult, CutField, PageData, Trial } from './types';
import { wordDiff, type DiffPart } from './word-diff';

/** The kinds shown, in order: regressions first. */
const MOVED = ['regressed', 'improved', 'judge-changed', 'tools-changed'];
/** Trial pairs shown per case (the writer keeps as many of the baseline's). */
const PAIRS = 3;

export function renderBeforeAfter(app: HTMLElement, data: PageData, fields: Fields): void {
  const cmp = data.results.comparison;
  if (!cmp) return;
  const moved: CaseChange[] = [];
  MOVED.forEach((kind) => cmp.cases.forEach((c) => c.kind === kind && moved.push(c)));
  if (!moved.length) return;
  const at: Record<string, number> = {};
  data.keys.forEach((k, i) => (at[k] = i));
  const base = data.baseline;
  const baseCases: Record<string, BaselineCase> = {};
  if (base) base.cases.forEach((c) => (baseCases[c.key] = c));

  const section = add(app, el('section', 'before-after'));
  add(section, el('h2', null, 'Before and after'));
  add(section, el('p', 'ba-note', moved.length + ' case' + (moved.length === 1 ? '' : 's') + ' moved against the baseline ' + fields.plain(cmp.baseline) + baseRun(base) + '.'));
  if (!base || base.missing)
    add(
      section,
      el(
        'p',
        'ba-note ba-missing',
        "The baseline's replies are not on this page: " + (base && base.missing ? base.missing : 'the baseline file was not read when it was written') + ". Only this run's side is shown.",
      ),
    );
  if (base && base.omitted)
    add(section, el('p', 'ba-note', base.omitted + ' more moved case' + (base.omitted === 1 ? ' is' : 's are') + " listed without the baseline's side (the page keeps " + base.cases.length + ').'));
  // The legend of the kinds: the rule is the comparison's (classifyChange), said here in the page's words.
  if (moved.some((c) => c.kind === 'regressed' || c.kind === 'judge-changed' || c.kind === 'tools-changed'))
    add(
      section,
      el(
        'p',
        'ba-note ba-legend',
        'How a case is classified: an assertion no judge graded (a deterministic check, gate or soft) that fails more often than in the baseline makes its case regressed, whatever happened to its judges; "judge changed" (never counted) is only a case whose differences all lie in judged assertions whose judge or criterion changed; "tools changed" (never counted) is a case whose model was offered other tool definitions (names, descriptions, schemas) and that did not get worse: one that got worse with them is regressed.',
      ),
    );
  if (cmp.rejudge) {
    const u = cmp.rejudge.usage;
    const spent = u ? ' Re-judging it spent (judges): ' + usageLine(u) + '.' : '';
    add(section, el('p', 'ba-note', 'The baseline was re-judged for this comparison (--rejudge): its side shows the assertions as they were recorded.' + spent));
  }
  const usable = base && !base.missing ? base : undefined;
  moved.forEach((ch) => {
    const i = at[ch.key];
    add(section, movedCase(ch, i === undefined ? undefined : data.results.cases[i], usable ? baseCases[ch.key] || null : undefined, fields));
  });
}

function baseRun(base: BaselineView | undefined): string {
  const r = base && base.run;
  return r ? ' (run ' + r.id + ', started ' + r.startedAt + (r.gitSha ? ' at ' + r.gitSha.slice(0, 12) : '') + ')' : '';
}

/**
 * One moved case, collapsed; its pairs are built on open. `before`: the baseline's case, null when the
 * baseline file holds no such case, undefined when the baseline's side is not on the page.
 */
function movedCase(ch: CaseChange, head: CaseResult | undefined, before: BaselineCase | null | undefined, fields: Fields): HTMLDetailsElement {
  const row = el('details', 'ba-case ' + ch.kind);
  const sum = add(row, el('summary'));
  // As the terminal names them: 'judge changed', 'tools changed'.
  add(sum, el('span', 'change ' + ch.kind, ch.kind === 'judge-changed' || ch.kind === 'tools-changed' ? ch.kind.replace('-', ' ') : ch.kind));
  add(sum, el('span', 'key', ch.key));
  const counts = ch.base && ch.head ? 'passed ' + ch.base.passed + '/' + ch.base.run + ' \u2192 ' + ch.head.passed + '/' + ch.head.run : '';
  const why = [counts, ch.reason || '', ch.pValue !== undefined ? 'p=' + ch.pValue.toFixed(4) : ''].filter((x) => x).join(', ');
  if (why) add(sum, el('span', 'score', why));
  let built = false;
  row.addEventListener('toggle', () => {
    if (!row.open || built) return;
    built = true;
    const body = add(row, el('div', 'case-body'));
    if (ch.kind === 'judge-changed')
      add(
        body,
        el(
          'p',
          'ba-note judge-changed',
          'Judge changed' +
            (ch.judgeChanges && ch.judgeChanges.length ? ' (' + ch.judgeChanges.join('; ') + ')' : '') +
            ": this run's judged assertions were judged by another judge or criterion than the baseline's, and no assertion a judge did not grade (or whose judge stayed) fails more often, so the move is the judge's as much as the agent's. The agent is not blamed: the case is not counted.",
        ),
      );
    if (ch.kind === 'tools-changed')
      add(
        body,
        el(
          'p',
          'ba-note tools-changed',
          'Tools changed' +
            (ch.toolChanges && ch.toolChanges.length ? ' (' + ch.toolChanges.join('; ') + ')' : '') +
            ': the model was offered other tool definitions than in the baseline (a name, description or schema), and the case did as well as before. Not counted; had it got worse, it would be regressed.',
        ),
      );
    if (ch.failedAssertions && ch.failedAssertions.length)
      add(
        body,
        el(
          'p',
          'ba-note ba-failed-assertions',
          'Regressed by ' +
            ch.failedAssertions
              .map((a) => a.name + ' (failed ' + a.head.failed + '/' + a.head.run + ', baseline ' + a.base.failed + '/' + a.base.run + (a.judged ? ', same judge' : ', no judge graded it') + ')')
              .join('; ') +
            (ch.judgeChanges && ch.judgeChanges.length ? '. The judge also changed (' + ch.judgeChanges.join('; ') + '), which does not excuse it: the case is counted.' : '.') +
            (ch.toolChanges && ch.toolChanges.length ? ' The tools also changed (' + ch.toolChanges.join('; ') + '), which does not excuse it either.' : ''),
        ),
      );
    if (!head) {
      add(body, el('p', 'ba-note', 'This run holds no case ' + ch.key + '.'));
      return;
    }
    if (before === null) add(body, el('p', 'ba-note ba-missing', 'The baseline file holds no case ' + ch.key + '.'));
    else if (before && before.trialsRun > before.trials.length) add(body, el('p', 'ba-note', 'The baseline ran ' + before.trialsRun + ' trials; the page keeps ' + before.trials.length + '.'));
    // The trials that show the move best first: for a regression, the baseline's passes beside this run's misses.
    const lost = ch.kind === 'regressed' ? true : ch.kind === 'improved' ? false : null;
    const b = before ? ordered(before.trials, lost) : [];
    const h = ordered(head.trials, lost === null ? null : !lost);
    const n = Math.min(PAIRS, Math.max(b.length, h.length));
    for (let k = 0; k < n; k++) add(body, pair(b[k], h[k], before !== undefined, fields));
  });
  return row;
}

/** Trials ordered best first (good = true), worst first (false), or as they ran (null). */
function ordered(trials: Trial[], good: boolean | null): Trial[] {
  if (good === null) return trials;
  const worth = (t: Trial): number => (t.verdict === 'passed' ? 1 : 0) + t.score / 2;
  return trials.slice().sort((x, y) => (good ? worth(y) - worth(x) : worth(x) - worth(y)) || x.index - y.index);
}

function trialName(who: string, t: Trial | undefined): string {
  return t ? who + ' trial ' + (t.index + 1) + ' (' + t.verdict + ', score ' + t.score.toFixed(3) + ')' : who + ': no trial';
}

/** One baseline trial beside one of this run's: replies with a word diff, tool calls, assertions. */
function pair(b: Trial | undefined, h: Trial | undefined, baseShown: boolean, fields: Fields): HTMLDivElement {
  const box = el('div', 'ba-pair');
  add(box, el('h3', null, (baseShown ? trialName('Baseline', b) + ' \u2192 ' : '') + trialName('This run', h)));

  // Replies, the changed words marked: the baseline's dropped words on its side, this run's new ones on its.
  const cuts: CutField[] = [];
  const bText = b ? replyText(b, fields, cuts) : '';
  const hText = h ? replyText(h, fields, cuts) : '';
  const parts = b && h ? wordDiff(bText, hText) : null;
  const sides = add(box, el('div', 'ba-sides ba-replies'));
  if (baseShown) side(sides, 'before', 'Baseline reply', b ? textPre(bText, parts, 'del') : null);
  side(sides, 'after', 'This run\u2019s reply', h ? textPre(hText, parts, 'ins') : null);
  if (b && h && !parts) add(box, el('p', 'ba-note', 'The replies differ too much for a word diff: both are shown whole.'));
  if (cuts.length) {
    add(box, el('p', 'ba-note', 'Cut: the diff compares the first characters the page keeps of each long reply; the whole texts are behind the links.'));
    fields.links(box, cuts);
  }

  // The tool calls: the edit from the baseline's sequence to this run's.
  const tools = add(box, el('div', 'ba-tool-edit'));
  const hNames = h ? toolNames(h) : [];
  if (b && h) {
    const edit = toolEdit(toolNames(b), hNames);
    const same = !edit.inserted && !edit.dropped && !edit.moved;
    add(
      tools,
      el(
        'div',
        'label',
        same ? 'Tool calls: the same ' + hNames.length + ' in the same order' : 'Tool calls: ' + edit.inserted + ' inserted, ' + edit.dropped + ' dropped, ' + edit.moved + ' reordered',
      ),
    );
    toolRow(tools, edit.ops);
  } else if (h) {
    add(tools, el('div', 'label', 'Tool calls (this run): ' + hNames.length));
    toolRow(
      tools,
      hNames.map((name): ToolOp => ({ op: 'kept', name })),
    );
  }

  // The assertions' verdicts and reasons, the baseline's beside this run's.
  add(box, el('div', 'label', 'Assertions'));
  const names: string[] = [];
  [h, b].forEach((t) => t && t.assertions.forEach((a) => names.indexOf(a.name) === -1 && names.push(a.name)));
  names.forEach((name) => {
    const row = add(box, el('div', 'ba-sides ba-assertion'));
    if (baseShown) side(row, 'before', name, b ? assertionText(find(b, name), fields) : null);
    side(row, 'after', name, h ? assertionText(find(h, name), fields) : null);
  });
  return box;
}

function side(parent: Node, cls: string, label: string, content: Node | null): void {
  const box = add(parent, el('div', 'ba-side ' + cls));
  add(box, el('div', 'label', label));
  add(box, content || el('p', 'ba-note', 'no trial'));
}

/** A reply as text, the parts of its side marked (del: the baseline's own words, ins: this run's). */
function textPre(text: string, parts: DiffPart[] | null, mark: 'del' | 'ins'): HTMLPreElement {
  const pre = el('pre', 'ba-text');
  if (!parts) {
    pre.textContent = text || '(no reply)';
    return pre;
  }
  parts.forEach((p) => {
    if (p.kind === 'same') add(pre, document.createTextNode(p.text));
    else if (p.kind === mark) add(pre, el(mark, 'ba-' + mark, p.text));
  });
  return pre;
}

/** A trial's reply: its turns' replies in order, or its one reply. */
function replyText(t: Trial, fields: Fields, cuts: CutField[]): string {
  if (t.turns && t.turns.length) return t.turns.map((turn, n) => 'Turn ' + (n + 1) + ': ' + fields.text(turn.reply, cuts)).join('\n\n');
  return fields.text(t.reply, cuts);
}

/** The names of a trial's tool calls, in the order they were made. */
function toolNames(t: Trial): string[] {
  const names: string[] = [];
  if (t.turns && t.turns.length) t.turns.forEach((turn) => turn.toolCalls.forEach((c) => names.push(c.name)));
  else (t.trace.steps || []).forEach((s) => (s.toolCalls || []).forEach((c) => names.push(c.name)));
  return names;
}

const OP_TITLE: Record<ToolOp['op'], string> = {
  kept: 'in both runs',
  inserted: 'only this run',
  dropped: 'only the baseline',
  'moved-from': 'reordered: its place in the baseline',
  'moved-to': 'reordered: its place in this run',
};

function toolRow(parent: Node, ops: ToolOp[]): void {
  if (!ops.length) return;
  const row = add(parent, el('div', 'ba-tools'));
  ops.forEach((o) => {
    const mark = o.op === 'kept' ? '' : o.op === 'inserted' ? '+ ' : o.op === 'dropped' ? '\u2212 ' : '\u21c4 ';
    const chip = add(row, el('span', 'ba-tool ' + o.op, mark + o.name));
    chip.title = OP_TITLE[o.op];
  });
}

function find(t: Trial, name: string): Assertion | undefined {
  for (const a of t.assertions) if (a.name === name) return a;
  return undefined;
}

function assertionText(a: Assertion | undefined, fields: Fields): HTMLPreElement {
  if (!a) return el('pre', 'ba-text', '(not asserted)');
  const said = [a.reason, a.message].filter((x) => x !== undefined && x !== '').map((x) => fields.plain(x));
  const judge = a.judge ? ' by ' + a.judge.provider + ':' + a.judge.model + (a.judge.cached ? ' (cached)' : '') : '';
  const head = a.status === 'skipped' ? 'skipped' : a.status + ', score ' + a.score.toFixed(3);
  return el('pre', 'ba-text', head + judge + (said.length ? '\n' + said.join('\n') : ''));
}
