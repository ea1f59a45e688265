// The run summary at the top: counts, pass rate, usage (the judge's with its cache), the cost split,
// the charts, each judge panel's agreement, the tools called outside an allowlist and the comparison's counts.
import { add, el } from './dom';
import type { Fields } from './fields';
import { dur, pct, usageLine, usd } from './format';
import { cacheLine, judgeUsageLine, type JudgeTally } from './judge-usage';
import { renderCharts, tallyRun } from './run-charts';
import { panelFacts, renderOutsideAllowlist } from './run-notes';
import type { CaseChange, ResultsDoc } from './types';

/** Renders the summary into app; returns the comparison's change of each case, by case key. */
export function renderSummary(app: HTMLElement, doc: ResultsDoc, fields: Fields): Record<string, CaseChange> {
  const s = doc.summary;
  const tally = tallyRun(doc);
  const head = add(app, el('section', 'summary'));
  add(head, el('h1', null, 'agent-evals report'));
  fields.facts(head, [
    ['Cases', s.cases.total + ' total: ' + s.cases.passed + ' passed, ' + s.cases.failed + ' failed, ' + s.cases.scored + ' scored, ' + s.cases.skipped + ' skipped'],
    [
      'Pass rate',
      s.passRate
        ? pct(s.passRate.rate) + ' (' + s.passRate.passed + '/' + s.passRate.trials + ' trials, 95% interval ' + pct(s.passRate.low) + ' to ' + pct(s.passRate.high) + ')'
        : s.trials.passed + '/' + s.trials.run + ' trials passed',
    ],
    // No trial scored: a mean of 0 would read as a run that scored nothing.
    ['Score', s.trials.run - (s.trials.interrupted || 0) > 0 ? s.score.mean.toFixed(3) + ' \u00b1 ' + s.score.stddev.toFixed(3) : 'no trial ran'],
    ['Duration', dur(doc.run.durationMs)],
    ['Run', doc.run.id + ' started ' + doc.run.startedAt + (doc.run.gitSha ? ' at ' + doc.run.gitSha.slice(0, 12) : '') + (doc.run.interrupted ? ' (interrupted)' : '')],
    ['Target usage', usageLine(s.usage.target)],
    ['Judge usage', judgeUsageLine(s.usage.judge, tally.judge)],
    ...panelFacts(s, fields),
  ]);
  costSplit(head, s.usage.target.costUsd, s.usage.judge.costUsd, tally.judge);
  renderCharts(head, tally, s.passRate);
  s.failures.forEach((f) => add(head, el('p', 'run-failure', fields.plain(f))));
  renderOutsideAllowlist(head, s, fields);

  const changes: Record<string, CaseChange> = {};
  const cmp = doc.comparison;
  if (cmp) {
    cmp.cases.forEach((c) => (changes[c.key] = c));
    add(
      head,
      el(
        'p',
        'comparison',
        'Compared with ' +
          fields.plain(cmp.baseline) +
          ': ' +
          (cmp.rejudge ? 'agent effect: ' : '') +
          Object.keys(cmp.counts)
            .map((k) => String(cmp.counts[k]) + ' ' + k)
            .join(', '),
      ),
    );
    // --rejudge: the baseline was re-judged by head's judge; the judge effect is shown, never counted.
    const rj = cmp.rejudge;
    if (rj)
      add(
        head,
        el('p', 'comparison judge-effect', 'Judge effect (baseline re-judged by ' + (rj.judges.join(', ') || "head's judge") + ', not counted): ' + rj.lower + ' lower, ' + rj.higher + ' higher'),
      );
  }
  return changes;
}

/** A bar split between target and judge cost, when both are known and any was spent. */
function costSplit(head: HTMLElement, t: number | null, j: number | null, judge: JudgeTally): void {
  if (t === null || j === null || t + j <= 0) return;
  const chart = add(head, el('div', 'cost'));
  add(chart, el('span', 'label', 'Cost'));
  const split = add(chart, el('span', 'split'));
  const tp = add(split, el('span', 'target'));
  tp.style.width = (100 * t) / (t + j) + '%';
  tp.title = 'target ' + usd(t);
  const jp = add(split, el('span', 'judge'));
  jp.style.width = (100 * j) / (t + j) + '%';
  jp.title = 'judge ' + usd(j);
  add(chart, el('span', 'legend', 'target ' + usd(t) + ' / judge ' + usd(j) + (judge.cached ? '; judge cache: ' + cacheLine(judge) : '')));
}
