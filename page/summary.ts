// The run summary at the top: counts, pass rate, usage (the judge's with its cache), the cost split,
// the charts, each judge panel's agreement, the tools called outside an allowlist and the comparison's counts.
import { add, el } from './dom';
import type { Fields } from './fields';
import { dur, pct, usageLine, usd } from './format';
import { cacheLine, judgeUsageLine, type JudgeTally } from './judge-usage';
import { renderCharts, tallyRun } from './run-charts';
import { panelFacts, renderOutsideAllowlist } from './run-notes';
import type { CaseChange, ResultsDoc, UsageSplit } from './types';

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
    ['Simulated user usage', s.usage.user ? usageLine(s.usage.user) : ''],
  ]);
  costSplit(head, s.usage, tally.judge);
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

/** A bar split between target, judge and (when a case had a simulated user) user-model cost, when all are known and any was spent. */
function costSplit(head: HTMLElement, usage: UsageSplit, judge: JudgeTally): void {
  const roles = (['target', 'judge', 'user'] as const).filter((r) => r !== 'user' || usage.user);
  const costs = roles.map((r) => usage[r]!.costUsd).filter((c): c is number => c !== null);
  if (costs.length < roles.length) return;
  const sum = costs.reduce((a, b) => a + b, 0);
  if (sum <= 0) return;
  const chart = add(head, el('div', 'cost'));
  add(chart, el('span', 'label', 'Cost'));
  const split = add(chart, el('span', 'split'));
  const label = (r: string) => (r === 'user' ? 'simulated user' : r);
  roles.forEach((r, i) => {
    const part = add(split, el('span', r));
    part.style.width = (100 * costs[i]!) / sum + '%';
    part.title = label(r) + ' ' + usd(costs[i]);
  });
  const legend = roles.map((r, i) => label(r) + ' ' + usd(costs[i])).join(' / ');
  add(chart, el('span', 'legend', legend + (judge.cached ? '; judge cache: ' + cacheLine(judge) : '')));
}
