// The run report's charts, from one pass over the results at load (no trial is rendered for them):
// the run's pass rate on its interval, pass rate by suite (trials passed of those that ran to a verdict, as the summary's pass rate counts
// them) and a histogram of trial scores; the same pass tallies the judge's cache.
import { add, el } from './dom';
import { emptyTally, tallyJudgments, type JudgeTally } from './judge-usage';
import { pct } from './format';
import { barChart, bins, histogram, intervalStrip } from './svg';
import type { PassRate, ResultsDoc } from './types';

const SCORE_BINS = 10;

export interface SuiteTally {
  suite: string;
  passed: number;
  ran: number;
}

export interface RunTally {
  suites: SuiteTally[];
  /** Trials (interrupted ones left out) per score bin: [0, 0.1), …, [0.9, 1]. */
  scores: number[];
  judge: JudgeTally;
}

export function tallyRun(doc: ResultsDoc): RunTally {
  const bySuite: Record<string, SuiteTally> = {};
  const suites: SuiteTally[] = [];
  const scores: number[] = [];
  const judge = emptyTally();
  const newSuite = (name: string): SuiteTally => {
    const s = { suite: name, passed: 0, ran: 0 };
    bySuite[name] = s;
    suites.push(s);
    return s;
  };
  doc.cases.forEach((c) => {
    const name = c.suite || '(no suite)';
    const s = bySuite[name] || newSuite(name);
    c.trials.forEach((t) => {
      tallyJudgments(judge, t.assertions);
      if (t.verdict === 'interrupted') return;
      s.ran += 1;
      if (t.verdict === 'passed') s.passed += 1;
      scores.push(t.score);
    });
  });
  return { suites, scores: bins(scores, SCORE_BINS), judge };
}

/** The charts, side by side under the summary's facts (the pass rate's interval, by suite, scores); nothing when no trial ran. */
export function renderCharts(parent: HTMLElement, t: RunTally, rate: PassRate | undefined): void {
  const ran = t.suites.filter((s) => s.ran > 0);
  if (!ran.length) return;
  const row = add(parent, el('div', 'charts'));
  if (rate) {
    const fig = add(row, el('figure', 'chart pass-rate'));
    add(fig, el('figcaption', null, 'Pass rate ' + pct(rate.rate) + ', 95% interval ' + pct(rate.low) + '\u2013' + pct(rate.high)));
    fig.appendChild(intervalStrip(rate.rate, rate.low, rate.high, 'Pass rate ' + pct(rate.rate) + ' with its 95% interval, ' + pct(rate.low) + ' to ' + pct(rate.high)));
  }
  const bySuite = add(row, el('figure', 'chart suites'));
  add(bySuite, el('figcaption', null, 'Pass rate by suite'));
  bySuite.appendChild(
    barChart(
      ran.map((s) => ({ label: s.suite, value: s.passed / s.ran, note: pct(s.passed / s.ran) + ' (' + s.passed + '/' + s.ran + ')' })),
      'Pass rate by suite',
    ),
  );
  const hist = add(row, el('figure', 'chart scores'));
  add(hist, el('figcaption', null, 'Trial scores'));
  const step = 1 / SCORE_BINS;
  hist.appendChild(
    histogram(
      t.scores,
      'Trial scores, ' + SCORE_BINS + ' bins from 0 to 1',
      '0',
      '1',
      (i) => 'score ' + (i * step).toFixed(1) + (i === SCORE_BINS - 1 ? '\u20131.0' : '\u2013<' + ((i + 1) * step).toFixed(1)) + ', trials',
    ),
  );
}
