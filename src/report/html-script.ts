/**
 * The HTML report's one script, run by the browser. It reads the results from the JSON block and
 * builds every node with textContent (never innerHTML), so agent, tool and judge text stays text.
 * Trials are built only when their case is opened, and the case list grows a page at a time, so a
 * run of 10,000 trials opens as fast as a small one. Plain ES2017, no template literals: it is
 * kept as a string and its sha256 goes into the page's Content-Security-Policy.
 * A field cut by the writer (html-cut.ts) is shown collapsed, with its size and first characters,
 * and a link to its whole text in the folder beside the page; the link is built from the cut's
 * number alone. Once the first cases are on the page it marks 'agent-evals:first-cases' in
 * \`performance\`, so a test or a bench can read when that happened from the page itself.
 */
export const PAGE_SCRIPT = String.raw`(function () {
  'use strict';
  var data = JSON.parse(document.getElementById('results').textContent);
  var doc = data.results;
  var keys = data.keys;
  var CUT = data.cut, FILES = data.files;
  var PAGE = 200;
  var app = document.getElementById('app');

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = plainText(text);
    return e;
  }
  function add(parent, child) { parent.appendChild(child); return child; }
  function pct(x) { return (x * 100).toFixed(1) + '%'; }
  function usd(x) { return x === null || x === undefined ? 'unknown' : '$' + x.toFixed(4); }
  function dur(ms) { return ms < 1000 ? Math.round(ms) + ' ms' : (ms / 1000).toFixed(2) + ' s'; }
  // A cut field: an object holding the page's own cut key (a nonce the run could not know).
  function cutOf(v) { return v !== null && typeof v === 'object' && CUT && typeof v[CUT] === 'number' ? v : null; }
  function plainText(v) { var c = cutOf(v); return c ? c.preview + '\u2026' : String(v); }
  function size(n) { return n.toLocaleString('en-US') + ' characters'; }
  // The text of a value; the cut fields met on the way are pushed to found (when given).
  function text(v, found) {
    var c = cutOf(v);
    if (c) { if (found) found.push(c); return plainText(c); }
    if (typeof v === 'string') return v;
    if (v === undefined) return '';
    try {
      return JSON.stringify(v, function (_, x) {
        var k = cutOf(x);
        if (!k) return x;
        if (found) found.push(k);
        return plainText(k);
      }, 2);
    } catch (e) { return String(v); }
  }
  // A link to each cut field's whole text: our own file name, from the cut's number only.
  function fullLinks(parent, cuts) {
    cuts.forEach(function (c) {
      var a = add(parent, el('a', 'full', 'Full text (' + size(c.chars) + ')'));
      a.setAttribute('href', encodeURIComponent(FILES) + '/' + Math.floor(Number(c[CUT])) + '.txt');
      a.setAttribute('target', '_blank');
      a.setAttribute('rel', 'noopener');
    });
  }
  function usageLine(u) {
    return u.calls + ' calls, ' + u.inputTokens + ' in / ' + u.outputTokens + ' out tokens' +
      (u.cachedInputTokens ? ', ' + u.cachedInputTokens + ' cached' : '') + ', ' + usd(u.costUsd);
  }
  function facts(parent, rows) {
    var dl = add(parent, el('dl', 'facts'));
    rows.forEach(function (r) {
      if (r[1] === undefined || r[1] === null || r[1] === '') return;
      add(dl, el('dt', null, r[0]));
      var dd = add(dl, el('dd', null, r[1]));
      if (cutOf(r[1])) fullLinks(dd, [r[1]]);
    });
    return dl;
  }
  function block(parent, label, value, cls) {
    var cuts = [];
    var t = text(value, cuts);
    if (t === '') return;
    var box = add(parent, el('div', 'block ' + (cls || '')));
    add(box, el('div', 'label', label));
    if (!cuts.length) { add(box, el('pre', null, t)); return; }
    // Cut: collapsed, with its size; the first characters on open, the whole text behind the link.
    var fold = add(box, el('details', 'cut'));
    add(fold, el('summary', 'cut-note', 'Cut: ' + cuts.map(function (c) { return size(c.chars); }).join(', ') + ' (first ' + size(cuts[0].preview.length) + ' on open)'));
    add(fold, el('pre', null, t));
    fullLinks(box, cuts);
  }
  function bar(rate, cls) {
    var outer = el('span', 'bar ' + (cls || ''));
    var inner = add(outer, el('span', 'fill'));
    inner.style.width = Math.round(rate * 100) + '%';
    return outer;
  }

  // The run summary.
  var s = doc.summary;
  var head = add(app, el('section', 'summary'));
  add(head, el('h1', null, 'agent-evals report'));
  facts(head, [
    ['Cases', s.cases.total + ' total: ' + s.cases.passed + ' passed, ' + s.cases.failed + ' failed, ' + s.cases.scored + ' scored, ' + s.cases.skipped + ' skipped'],
    ['Pass rate', s.passRate ? pct(s.passRate.rate) + ' (' + s.passRate.passed + '/' + s.passRate.trials + ' trials, 95% interval ' + pct(s.passRate.low) + ' to ' + pct(s.passRate.high) + ')' : s.trials.passed + '/' + s.trials.run + ' trials passed'],
    ['Score', s.score.mean.toFixed(3) + ' \u00b1 ' + s.score.stddev.toFixed(3)],
    ['Duration', dur(doc.run.durationMs)],
    ['Run', doc.run.id + ' started ' + doc.run.startedAt + (doc.run.gitSha ? ' at ' + doc.run.gitSha.slice(0, 12) : '') + (doc.run.interrupted ? ' (interrupted)' : '')],
    ['Target usage', usageLine(s.usage.target)],
    ['Judge usage', usageLine(s.usage.judge)]
  ]);
  var t = s.usage.target.costUsd, j = s.usage.judge.costUsd;
  if (t !== null && j !== null && t + j > 0) {
    var chart = add(head, el('div', 'cost'));
    add(chart, el('span', 'label', 'Cost'));
    var split = add(chart, el('span', 'split'));
    var tp = add(split, el('span', 'target'));
    tp.style.width = (100 * t / (t + j)) + '%';
    tp.title = 'target ' + usd(t);
    var jp = add(split, el('span', 'judge'));
    jp.style.width = (100 * j / (t + j)) + '%';
    jp.title = 'judge ' + usd(j);
    add(chart, el('span', 'legend', 'target ' + usd(t) + ' / judge ' + usd(j)));
  }
  s.failures.forEach(function (f) { add(head, el('p', 'run-failure', f)); });

  // Regressions first, then plan order.
  var changes = {};
  if (doc.comparison) {
    doc.comparison.cases.forEach(function (c) { changes[c.key] = c; });
    add(head, el('p', 'comparison', 'Compared with ' + doc.comparison.baseline + ': ' + (doc.comparison.rejudge ? 'agent effect: ' : '') +
      Object.keys(doc.comparison.counts).map(function (k) { return doc.comparison.counts[k] + ' ' + k; }).join(', ')));
    // --rejudge: the baseline was re-judged by head's judge; the judge effect is shown, never counted.
    var rj = doc.comparison.rejudge;
    if (rj) add(head, el('p', 'comparison judge-effect', 'Judge effect (baseline re-judged by ' + (rj.judges.join(', ') || "head's judge") + ', not counted): ' + rj.lower + ' lower, ' + rj.higher + ' higher'));
  }
  var order = doc.cases.map(function (_, i) { return i; });
  var regressed = function (i) { var c = changes[keys[i]]; return c && c.kind === 'regressed' ? 0 : 1; };
  order.sort(function (a, b) { return regressed(a) - regressed(b) || a - b; });

  var tools = add(app, el('div', 'tools'));
  var filter = add(tools, el('input'));
  filter.type = 'search';
  filter.placeholder = 'Filter cases (key, file, verdict, tag)';
  filter.setAttribute('aria-label', 'Filter cases');
  var count = add(tools, el('span', 'count'));
  var list = add(app, el('div', 'cases'));
  var more = add(app, el('button', 'more', 'Show more'));
  more.type = 'button';
  var shown = [], next = 0;

  function matches(i, q) {
    if (!q) return true;
    var c = doc.cases[i];
    var hay = [keys[i], c.file, c.verdict].concat(c.tags).join(' ').toLowerCase();
    var ch = changes[keys[i]];
    // 'judge changed' finds judge-changed, as the terminal names it.
    if (ch) hay += ' ' + ch.kind + ' ' + ch.kind.split('-').join(' ');
    return hay.indexOf(q) !== -1;
  }
  function renderMore() {
    var stop = Math.min(shown.length, next + PAGE);
    for (; next < stop; next++) add(list, caseRow(shown[next]));
    more.hidden = next >= shown.length;
  }
  function refresh() {
    var q = filter.value.trim().toLowerCase();
    shown = order.filter(function (i) { return matches(i, q); });
    next = 0;
    list.textContent = '';
    count.textContent = shown.length + ' of ' + doc.cases.length + ' cases';
    renderMore();
  }
  filter.addEventListener('input', refresh);
  more.addEventListener('click', renderMore);

  function caseRow(i) {
    var c = doc.cases[i];
    var row = el('details', 'case ' + c.verdict);
    var sum = add(row, el('summary'));
    add(sum, el('span', 'verdict ' + c.verdict, c.verdict));
    var ch = changes[keys[i]];
    if (ch && ch.kind !== 'unchanged') add(sum, el('span', 'change ' + ch.kind, ch.kind));
    if (c.judgeNoise && c.judgeNoise.withinNoise) add(sum, el('span', 'change noise', 'within judge noise'));
    var je = ch && ch.judgeEffect;
    if (je && je.direction !== 'none') add(sum, el('span', 'change judge-' + je.direction, 'judge ' + je.direction));
    add(sum, el('span', 'key', keys[i]));
    var ran = c.passRate ? c.passRate.trials : c.trials.filter(function (x) { return x.verdict !== 'interrupted'; }).length;
    add(sum, bar(ran ? c.passed / ran : 0, c.verdict));
    add(sum, el('span', 'rate', c.passed + '/' + ran + ' passed (needed ' + c.required + ')'));
    add(sum, el('span', 'score', 'score ' + c.score.mean.toFixed(3)));
    var built = false;
    row.addEventListener('toggle', function () {
      if (!row.open || built) return;
      built = true;
      var body = add(row, el('div', 'case-body'));
      facts(body, [
        ['File', c.file + (c.line ? ':' + c.line : '')],
        ['Tags', c.tags.join(', ')],
        [je ? 'Agent effect' : 'Change', ch ? ch.kind + (je && ch.base && ch.head ? ' ' + ch.base.passed + '/' + ch.base.run + ' \u2192 ' + ch.head.passed + '/' + ch.head.run : '') + (ch.reason ? ': ' + ch.reason : '') + (ch.pValue !== undefined ? ' (p=' + ch.pValue.toFixed(4) + ')' : '') : ''],
        ['Judge effect', je ? je.direction + ' ' + je.recorded.passed + '/' + je.recorded.run + ' recorded \u2192 ' + je.rejudged.passed + '/' + je.rejudged.run + ' re-judged' + (je.reason ? ': ' + je.reason : '') + (je.pValue !== undefined ? ' (p=' + je.pValue.toFixed(4) + ')' : '') + (je.judgeChanges && je.judgeChanges.length ? '; ' + je.judgeChanges.join('; ') : '') + ', not counted' : ''],
        ['Not run', c.notRun ? c.notRun + ' (' + (c.notRunReason || '') + ')' : ''],
        ['Tool tape', c.trials.filter(function (x) { return x.toolTape && x.toolTape.diverged; }).map(function (x) { return 'trial ' + (x.index + 1) + ': ' + x.toolTape.diverged.message; }).join('; ')],
        ['Judge noise', c.judgeNoise ? c.judgeNoise.assertions.map(function (a) { return a.name + ': flipped ' + a.flips + ' of ' + a.reasks + ' re-asks, score sd ' + a.scoreStddev.toFixed(2) + ', range ' + a.scoreRange.toFixed(2); }).join('; ') + (c.judgeNoise.withinNoise ? ' (the miss is within judge noise)' : '') : ''],
        ['Adaptive', c.adaptive ? c.adaptive.used + ' of ' + c.adaptive.min + '..' + c.adaptive.max + ' trials, stopped: ' + c.adaptive.stoppedBy : ''],
        ['Target usage', usageLine(c.usage.target)],
        ['Judge usage', usageLine(c.usage.judge)]
      ]);
      c.trials.forEach(function (tr) { add(body, trialRow(c, tr)); });
    });
    return row;
  }

  function trialRow(c, tr) {
    var row = el('details', 'trial ' + tr.verdict);
    var sum = add(row, el('summary'));
    add(sum, el('span', 'verdict ' + tr.verdict, tr.verdict));
    add(sum, el('span', 'key', 'trial ' + (tr.index + 1)));
    add(sum, el('span', 'score', 'score ' + tr.score.toFixed(3) + ', ' + dur(tr.durationMs)));
    var built = false;
    row.addEventListener('toggle', function () {
      if (!row.open || built) return;
      built = true;
      var body = add(row, el('div', 'trial-body'));
      if (tr.error) block(body, 'Error', tr.error, 'error');
      facts(body, [
        ['Target usage', usageLine(tr.usage.target)],
        ['Judge usage', usageLine(tr.usage.judge)],
        ['Model', tr.trace.model],
        ['Stop reason', tr.trace.stopReason],
        ['Tool tape', tr.toolTape ? tr.toolTape.replayed + ' call' + (tr.toolTape.replayed === 1 ? '' : 's') + ' replayed' + (tr.toolTape.diverged ? '; ' + tr.toolTape.diverged.message : '') : '']
      ]);
      if (tr.trace.instructions) block(body, 'Instructions', tr.trace.instructions, 'system');
      add(body, el('h3', null, 'Conversation'));
      asked(body, c, tr);
      if (tr.turns) {
        tr.turns.forEach(function (turn, n) {
          block(body, 'User (turn ' + (n + 1) + ')', turn.input, 'user');
          turn.toolCalls.forEach(function (call) { toolCall(body, call); });
          block(body, 'Agent (turn ' + (n + 1) + ', ' + dur(turn.durationMs) + ')', turn.reply, 'agent');
        });
      } else {
        (tr.trace.steps || []).forEach(function (step, n) {
          if (step.text) block(body, 'Step ' + (n + 1) + (step.model ? ' (' + step.model + ')' : ''), step.text, 'step');
          (step.toolCalls || []).forEach(function (call) { toolCall(body, call); });
        });
        block(body, 'Reply', tr.reply, 'agent');
      }
      add(body, el('h3', null, 'Assertions'));
      if (c.reference !== undefined) block(body, 'Reference (expected answer)', c.reference, 'reference');
      tr.assertions.forEach(function (a) { assertion(body, a); });
    });
    return row;
  }

  // What the case asked, before the trial's steps: its history or input. A trial that ran turns
  // shows each turn's own message, so only the history before the first one is shown here.
  // Results written before cases kept what they asked have none of these fields.
  var ROLES = { user: 'User', assistant: 'Assistant (history)', system: 'System (history)' };
  function asked(parent, c, tr) {
    var ranTurns = tr.turns && tr.turns.length > 0;
    var history = c.messages || [];
    if (ranTurns) {
      var last = -1;
      history.forEach(function (m, k) { if (m.role === 'user') last = k; });
      history = history.filter(function (_, k) { return k !== last; });
    }
    history.forEach(function (m) { block(parent, ROLES[m.role] || m.role, m.content, m.role === 'user' ? 'user' : 'history'); });
    if (ranTurns || c.messages) return;
    if (c.input !== undefined) block(parent, 'User', c.input, 'user');
    else if (c.turns && c.turns.length) block(parent, 'User (turn 1)', c.turns[0].input, 'user');
  }

  function toolCall(parent, call) {
    var box = add(parent, el('div', 'tool' + (call.isError ? ' error' : '')));
    add(box, el('div', 'label', 'Tool call: ' + call.name + (call.durationMs !== undefined ? ' (' + dur(call.durationMs) + ')' : '') + (call.isError ? ' \u2014 error' : '')));
    if (call.args !== undefined) block(box, 'Arguments', call.args, 'args');
    if (call.result !== undefined) block(box, 'Result', call.result, 'result');
  }

  function assertion(parent, a) {
    var box = add(parent, el('div', 'assertion ' + a.status));
    var top = add(box, el('div', 'label'));
    add(top, el('span', 'verdict ' + a.status, a.status));
    add(top, el('span', null, ' ' + a.name + ' (' + a.kind + ', ' + a.severity + (a.turn ? ', turn ' + a.turn : '') + ')'));
    facts(box, [
      // On the author's scale when it was 1..10 (7/10), as the terminal shows it.
      ['Score', a.scale ? +(a.score * 10).toFixed(1) + '/10 (min ' + +(a.threshold * 10).toFixed(1) + '/10, weight ' + a.weight + ')' : a.score.toFixed(3) + ' (threshold ' + a.threshold + ', weight ' + a.weight + ')'],
      ['Message', a.message],
      ['Reason', a.reason],
      ['Choice', a.choice],
      ['Judge', a.judge ? a.judge.provider + ':' + a.judge.model + (a.judge.cached ? ' (cached)' : '') + ', ' + usageLine(a.judge.usage) : ''],
      ['Position', a.positionInconsistent ? 'inconsistent across orderings' : '']
    ]);
    if (a.evidence && a.evidence.length) {
      var ul = add(box, el('ul', 'evidence'));
      a.evidence.forEach(function (e) { add(ul, el('li', null, e)); });
    }
    if (a.dimensions) block(box, 'Dimensions', a.dimensions, 'dims');
  }

  refresh();
  if (typeof performance !== 'undefined' && performance.mark) performance.mark('agent-evals:first-cases');
})();
`;
