/**
 * A suite over a matrix of targets, end to end in-process: 20 cases × 2 targets = 40 cases, the
 * comparison table in the terminal and the results JSON, the better variant marked, identical
 * variants reported as no clear winner, and a matrix run compared with itself as unchanged.
 */
import { describe, expect, it } from 'vitest';
import { runInProcess } from '../support/run-in-process.js';
import { terminalReporter } from '../../src/report/terminal.js';
import { matrixTableLines } from '../../src/report/matrix-lines.js';
import { compareRuns } from '../../src/stats/compare-runs.js';
import { comparableCase } from '../../src/stats/compared-case.js';
import type { Reporter } from '../../src/report/reporter.js';

/** 20 refund questions; each passes when the reply mentions the order number it was asked about. */
const suite = (matrixLine: string) =>
  [
    'suite: support',
    matrixLine,
    'cases:',
    ...Array.from({ length: 20 }, (_, i) =>
      [`  - id: q${i + 1}`, `    input: "Where is the refund for order A${1000 + i}?"`, '    assert:', `      - { type: contains, value: "A${1000 + i}" }`].join('\n'),
    ),
    '',
  ].join('\n');

/** Echoes the order number; `worse` forgets it on every fourth question (15 of 20 pass). */
const agent =
  (worse: boolean) =>
  (input: string): string => {
    const order = /A\d{4}/.exec(input)![0];
    const n = Number(order.slice(1)) - 1000;
    return worse && n % 4 === 0 ? 'Your refund is on its way.' : `The refund for ${order} is on its way.`;
  };

function captured(): { text: () => string; reporter: Reporter } {
  let out = '';
  return { text: () => out, reporter: terminalReporter({ out: { write: (t: string) => (out += t) }, live: false, verbose: false }) };
}

describe('a matrix run', () => {
  it('--matrix target=a,b over 20 cases runs 40, prints the table, the JSON holds it, the better variant is marked', async () => {
    const term = captured();
    const { results } = await runInProcess({
      files: { 'evals/support.eval.yaml': suite('target: good') },
      config: { targets: { good: agent(false), worse: agent(true) } },
      selection: { matrix: ['target=good,worse'] },
      reporters: () => [term.reporter],
    });
    expect(results.cases).toHaveLength(40);
    expect(results.summary.cases.total).toBe(40);
    expect(results.cases.filter((c) => c.matrix?.target === 'good')).toHaveLength(20);
    expect(results.cases.filter((c) => c.verdict === 'passed' && c.matrix?.target === 'worse')).toHaveLength(15);
    // The key carries the value: the terminal names both variants of a case.
    expect(term.text()).toContain('support/q1 [target=good]');
    expect(term.text()).toContain('support/q1 [target=worse]');

    const tables = results.summary.matrix!;
    expect(tables).toHaveLength(1);
    const [good, worse] = tables[0]!.rows;
    expect(good).toMatchObject({ value: 'good', cases: 20, casesPassed: 20, passRate: { passed: 20, trials: 20, rate: 1 }, score: 1 });
    expect(worse).toMatchObject({ value: 'worse', cases: 20, casesPassed: 15, passRate: { passed: 15, trials: 20, rate: 0.75 }, score: 0.75 });
    expect(good!.best).toEqual(expect.arrayContaining(['casesPassed', 'score']));
    // 20/20 (83–100%) against 15/20 (53–89%): the intervals overlap, so no clear winner on pass rate, and no mark there.
    expect([...good!.best, ...worse!.best]).not.toContain('passRate');
    expect(tables[0]!.notes).toEqual(['no clear winner on pass rate: the 95% intervals of good and worse overlap']);

    // The terminal shows the same table the JSON holds.
    const printed = term.text().replace(/\x1b\[[0-9;]*m/g, '');
    for (const line of matrixTableLines(tables[0]!)) expect(printed).toContain(line);
    expect(printed).toMatch(/good +20\/20 \* +20 +100% \(84%–100%\) +1\.00 \*/);
  });

  it('identical variants are reported as no clear winner, with no column marked', async () => {
    const term = captured();
    const { results } = await runInProcess({
      files: { 'evals/support.eval.yaml': suite('matrix: { target: [a, b] }') },
      config: { targets: { a: agent(true), b: agent(true) } },
      reporters: () => [term.reporter],
    });
    expect(results.cases).toHaveLength(40);
    const table = results.summary.matrix![0]!;
    expect(table.rows.map((r) => [r.value, r.casesPassed, r.passRate.rate])).toEqual([
      ['a', 15, 0.75],
      ['b', 15, 0.75],
    ]);
    expect(table.rows.flatMap((r) => r.best).filter((c) => c !== 'latencyMean' && c !== 'latencyP95')).toEqual([]);
    expect(table.notes).toEqual(['no clear winner on pass rate: the 95% intervals of a and b overlap']);
    expect(term.text()).toContain('no clear winner on pass rate');
  });

  it('an unchanged matrix run compares clean with its own baseline, each variant matched to itself', async () => {
    const files = { 'evals/support.eval.yaml': suite('matrix: { target: [good, worse] }') };
    const config = { targets: { good: agent(false), worse: agent(true) } };
    const base = await runInProcess({ files, config });
    const head = await runInProcess({ files, config });
    const comparison = compareRuns(base.results.cases.map(comparableCase), head.results.cases.map(comparableCase), { baseline: 'base', epsilon: 0.05, maxRegressions: 0 });
    expect(comparison.counts).toMatchObject({ unchanged: 40, regressed: 0, new: 0, removed: 0 });
    // Were the variants matched by suite/id alone, `worse`'s failures would read as regressions of `good`.
    const swapped = head.results.cases.map((c) => ({ ...comparableCase(c), matrix: { target: c.matrix!.target === 'good' ? 'worse' : 'good' } }));
    expect(compareRuns(base.results.cases.map(comparableCase), swapped, { baseline: 'base', epsilon: 0.05, maxRegressions: 0 }).counts.regressed).toBe(5);
  });
});
