import { describe, expect, it } from 'vitest';
import { stripAnsi } from '../support/cli.js';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { terminalReporter } from '../../src/report/terminal.js';
import { junitReporter } from '../../src/report/junit.js';
import { githubReporter } from '../../src/report/github.js';
import { changeDetail, comparisonHeadline, formatP } from '../../src/report/comparison-lines.js';
import { compareEffects } from '../../src/stats/effects.js';
import { compareRuns } from '../../src/stats/compare-runs.js';
import { comparableCase, judgedBy } from '../support/comparable-case.js';
import { ResultsSchema, type CaseResult, type Summary } from '../../src/core/results-schema.js';
import { emptyUsage } from '../../src/core/usage.js';
import type { CaseView, EndInfo } from '../../src/report/reporter.js';
import { caseResult } from '../support/case-result.js';

const usage = { target: emptyUsage(), judge: emptyUsage() };
const INJECTED = 'x\x1b[31m</property><y>|**';

const comparable = comparableCase;

/** 5/5 → 2/5 on demo/drops, 2/5 → 5/5 on demo/better, a judge outage on demo/outage, an id with markup. */
const comparison = compareRuns(
  [comparable('drops', 5, 5), comparable('better', 2, 5), comparable('outage', 5, 5), comparable(INJECTED, 5, 5)],
  [comparable('drops', 2, 5), comparable('better', 5, 5), comparable('outage', 0, 5, { judgeErrors: 5 }), comparable(INJECTED, 1, 5)],
  { baseline: 'main', epsilon: 0.05, maxRegressions: 0 },
);

const demoCase = (id: string): CaseResult => caseResult({ suite: 'demo', id, file: 'evals/demo.eval.yaml', passed: 2, required: 2, planned: 5, score: { mean: 0.4, stddev: 0 }, usage });
const view = (id: string): CaseView => ({ index: 0, key: `demo/${id}`, suite: 'demo', id, file: 'evals/demo.eval.yaml', line: 1, tags: [], targetName: 't', repeat: 5 });
const summary: Summary = {
  cases: { total: 1, passed: 1, failed: 0, scored: 0, skipped: 0 },
  trials: { planned: 5, run: 5, notRun: 0, passed: 2 },
  score: { mean: 0.4, stddev: 0 },
  usage: { target: emptyUsage(), judge: emptyUsage(), total: emptyUsage() },
  counters: { judgeCallsSkippedByGates: 0, judgeCallsFromCache: 0, judgeTokensSavedByCache: 0, trialsNotRunEarlyStop: 0 },
  failures: [],
  warnings: [],
};
const end: EndInfo = { run: { id: 'r', startedAt: '2026-01-01T00:00:00Z', durationMs: 10, gitSha: null, argv: [], config: null, interrupted: false }, summary, exitCode: 1, comparison };

describe('comparison output', () => {
  it('a regression line reads `5/5 → 2/5, p = 0.083`', () => {
    const drops = comparison.cases.find((c) => c.key === 'demo/drops')!;
    expect(changeDetail(drops)).toBe('5/5 → 2/5, p = 0.083 (verdict passed → failed, score 1.00 → 0.40)');
    expect(formatP(0.0004)).toBe('p < 0.001');
  });

  it('terminal: regressions, improvements and the judge-error case on their own lines; ids shown inert', () => {
    let out = '';
    const r = terminalReporter({ out: { write: (t: string) => (out += t) }, live: false, verbose: false });
    void r.onEnd!(end);
    // Colours are on where CI is set: the table's words are read without them.
    const plain = stripAnsi(out);
    expect(plain).toMatch(/Compared\s+2 regressed \(2 counted, max 0\), 1 improved, 0 unchanged, 1 could not compare/);
    expect(plain).toMatch(/regressed\s+demo\/drops\s+5\/5 → 2\/5, p = 0\.083/);
    expect(plain).toMatch(/improved\s+demo\/better\s+2\/5 → 5\/5, p = 0\.083/);
    expect(plain).toMatch(/could not compare: judge errors\s+demo\/outage\s+5\/5 → 0\/5 \(judge errors: base 0, head 5\)/);
    expect(out).not.toContain('\x1b[31m</property>');
    expect(out).toContain('\\x1b[31m');
  });

  it('GitHub step summary: a table of moved cases, markup escaped', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'cmp-')), 'summary.md');
    const r = githubReporter({ out: { write: () => true }, summaryFile: file });
    await r.onEnd!(end);
    const md = readFileSync(file, 'utf8');
    expect(md).toContain('#### Compared with baseline main: ❌');
    expect(md).toContain('| demo/drops | regressed | 5/5 → 2/5, p = 0.083 \\(verdict passed → failed, score 1.00 → 0.40\\) |');
    expect(md).toContain('| demo/outage | could not compare: judge errors |');
    expect(md).not.toContain('<y>|**');
  });

  it('JUnit: each moved case carries a comparison property, each suite the headline', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'cmp-')), 'junit.xml');
    const r = junitReporter({ path: file });
    void r.onCaseEnd!(demoCase('drops'), view('drops'));
    void r.onCaseEnd!(demoCase('steady'), view('steady'));
    void r.onCaseEnd!(demoCase(INJECTED), view(INJECTED));
    await r.onEnd!(end);
    const xml = readFileSync(file, 'utf8');
    expect(xml).toContain('<property name="comparison" value="regressed: 5/5 → 2/5, p = 0.083 (verdict passed → failed, score 1.00 → 0.40)"/>');
    expect(xml).toMatch(/<property name="baseline" value="main"\/><property name="comparison" value="2 regressed/);
    // The unchanged case has no comparison property; the id with markup is escaped.
    expect(xml).toMatch(/name="steady" [^>]*><system-out>/);
    expect(xml).not.toContain('</property><y>');
  });

  it('a judge-changed case: listed with what changed on the terminal, in the GitHub table and as a JUnit property, never failing', async () => {
    const judged = (model: string) => ({
      hash: model,
      assertions: [
        {
          key: 'judge#1',
          name: 'judge "polite"',
          judge: { hash: model, provider: 'openai', model, criterion: { type: 'judge', threshold: 0.7, trace: 'safe', targetInstructions: true }, prompt: 'p1' },
        },
      ],
    });
    const c = compareRuns([comparable('drops', 5, 5, { judgeFingerprint: judged('gpt-4.1-mini') })], [comparable('drops', 0, 5, { judgeFingerprint: judged('gpt-4.1-nano') })], {
      baseline: 'main',
      epsilon: 0.05,
      maxRegressions: 0,
    });
    const ended: EndInfo = { ...end, exitCode: 0, comparison: c };
    let out = '';
    void terminalReporter({ out: { write: (t: string) => (out += t) }, live: false, verbose: false }).onEnd!(ended);
    const plain = stripAnsi(out);
    expect(plain).toMatch(/Compared\s+0 regressed \(0 counted, max 0\), 0 improved, 0 unchanged, 1 judge changed/);
    expect(plain).toMatch(/judge changed\s+demo\/drops\s+5\/5 → 0\/5 \(judge openai:gpt-4\.1-mini → openai:gpt-4\.1-nano\)/);
    expect(plain).toContain('1 case touched by a judge change: not compared');

    const md = join(mkdtempSync(join(tmpdir(), 'cmp-')), 'summary.md');
    await githubReporter({ out: { write: () => true }, summaryFile: md }).onEnd!(ended);
    const text = readFileSync(md, 'utf8');
    expect(text).toContain('#### Compared with baseline main: ✅');
    expect(text).toContain('| demo/drops | judge changed | 5/5 → 0/5 \\(judge openai:gpt-4.1-mini → openai:gpt-4.1-nano\\) |');

    const xml = join(mkdtempSync(join(tmpdir(), 'cmp-')), 'junit.xml');
    const r = junitReporter({ path: xml });
    void r.onCaseEnd!(demoCase('drops'), view('drops'));
    await r.onEnd!(ended);
    expect(readFileSync(xml, 'utf8')).toContain('<property name="comparison" value="judge changed: 5/5 → 0/5 (judge openai:gpt-4.1-mini → openai:gpt-4.1-nano)"/>');
  });
});

/** demo/strict: head's judge fails what judge A passed (judge effect only); demo/broken: the agent broke under the same judge. */
const rejudged = compareEffects(
  {
    recorded: [comparable('strict', 5, 5), comparable('broken', 5, 5), comparable('pruned', 5, 5)],
    rejudged: [comparable('strict', 0, 5, { judgeFingerprint: judgedBy('judge-b') }), comparable('broken', 5, 5, { judgeFingerprint: judgedBy('judge-b') })],
    cannot: new Map([['demo/pruned', 'no raw trials in the run folder']]),
  },
  [comparable('strict', 0, 5, { judgeFingerprint: judgedBy('judge-b') }), comparable('broken', 0, 5, { judgeFingerprint: judgedBy('judge-b') }), comparable('pruned', 0, 5)],
  { baseline: 'base.json', epsilon: 0.05, maxRegressions: 0 },
);
const P = 'p = 0.004'; // 5/5 → 0/5: 1/252

const rejudgedEnd: EndInfo = { ...end, comparison: rejudged };

describe('a --rejudge comparison in the outputs', () => {
  it('is a valid results `comparison`', () => {
    expect(() => ResultsSchema.shape.comparison.parse(rejudged)).not.toThrow();
  });

  it('one case line holds both effects; the headline counts the agent effect and sums the judge effect', () => {
    const strict = rejudged.cases.find((c) => c.key === 'demo/strict')!;
    expect(changeDetail(strict)).toBe(`agent effect: none (0/5 → 0/5); judge effect: 5/5 → 0/5 re-judged, ${P} (head's judge stricter: verdict passed → failed, score 1.00 → 0.00)`);
    expect(comparisonHeadline(rejudged)).toBe(
      'agent effect: 1 regressed (1 counted, max 0), 0 improved, 1 unchanged, 1 could not compare; judge effect (baseline re-judged by openai:judge-b): 1 lower, 0 higher',
    );
  });

  it('terminal: the agent effect counts, the judge effect is shown with its p, the unrejudgeable case is set apart', () => {
    let out = '';
    const r = terminalReporter({ out: { write: (t: string) => (out += t) }, live: false, verbose: false });
    void r.onEnd!(rejudgedEnd);
    const plain = stripAnsi(out);
    expect(plain).toMatch(/regressed\s+demo\/broken\s+agent effect: 5\/5 → 0\/5, p = 0\.004 \(verdict passed → failed, score 1\.00 → 0\.00\); judge effect: none \(5\/5 → 5\/5 re-judged\)/);
    expect(plain).toMatch(/unchanged\s+demo\/strict\s+agent effect: none \(0\/5 → 0\/5\); judge effect: 5\/5 → 0\/5 re-judged, p = 0\.004/);
    expect(plain).toMatch(/could not compare: cannot re-judge\s+demo\/pruned\s+5\/5 → 0\/5 \(cannot re-judge: no raw trials in the run folder\)/);
  });

  it('JUnit: agent-effect and judge-effect properties beside the comparison property', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'effects-')), 'junit.xml');
    const r = junitReporter({ path: file });
    for (const id of ['strict', 'broken']) void r.onCaseEnd!(demoCase(id), view(id));
    await r.onEnd!(rejudgedEnd);
    const xml = readFileSync(file, 'utf8');
    expect(xml).toContain('<property name="agent-effect" value="unchanged: none (0/5 → 0/5)"/>');
    expect(xml).toContain(`<property name="judge-effect" value="5/5 → 0/5 re-judged, ${P} (head&apos;s judge stricter: verdict passed → failed, score 1.00 → 0.00)"/>`);
    expect(xml).toContain(`<property name="agent-effect" value="regressed: 5/5 → 0/5, ${P} (verdict passed → failed, score 1.00 → 0.00)"/>`);
    expect(xml).toContain('<property name="judge-effect" value="none (5/5 → 5/5 re-judged)"/>');
    expect(xml).toMatch(/<property name="comparison" value="agent effect: 1 regressed .*judge effect \(baseline re-judged by openai:judge-b\): 1 lower, 0 higher"/);
  });

  it('GitHub step summary: a judge effect column, not counted', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'effects-')), 'summary.md');
    const r = githubReporter({ out: { write: () => true }, summaryFile: file });
    await r.onEnd!(rejudgedEnd);
    const md = readFileSync(file, 'utf8');
    expect(md).toContain('| case | agent effect | detail | judge effect (not counted) |');
    expect(md).toContain(`| demo/strict | unchanged | none \\(0/5 → 0/5\\) | 5/5 → 0/5 re-judged, ${P} \\(head's judge stricter: verdict passed → failed, score 1.00 → 0.00\\) |`);
    expect(md).toContain(`| demo/broken | regressed | 5/5 → 0/5, ${P} \\(verdict passed → failed, score 1.00 → 0.00\\) | none \\(5/5 → 5/5 re-judged\\) |`);
  });
});

describe('the legend of the kinds and the re-judge spend, in every text reporter', () => {
  // demo/order: its contains gate fails in head under another judge; demo/tone: only its judged score moved with the judge.
  const gate = (ok: boolean) => ({ name: 'contains "shipped"', kind: 'contains', status: ok ? ('passed' as const) : ('failed' as const) });
  const trials = (n: number, ok: boolean) => Array.from({ length: n }, () => ({ verdict: ok ? ('passed' as const) : ('failed' as const), assertions: [gate(ok)] }));
  const spent = { calls: 4, inputTokens: 1000, outputTokens: 200, cachedInputTokens: 0, reasoningTokens: 0, costUsd: 0.0031 };
  const c = compareEffects(
    {
      recorded: [comparable('order', 2, 2, { trials: trials(2, true) })],
      rejudged: [comparable('order', 2, 2, { trials: trials(2, true), judgeFingerprint: judgedBy('judge-a') })],
      cannot: new Map(),
      usage: spent,
    },
    [comparable('order', 0, 2, { trials: trials(2, false), judgeFingerprint: judgedBy('judge-b') })],
    { baseline: 'base.json', epsilon: 0.05, maxRegressions: 0 },
  );
  const ended: EndInfo = { ...end, comparison: c };

  it('the comparison keeps the spend (rejudge.usage) and regresses the gate failure despite the judge change', () => {
    expect(() => ResultsSchema.shape.comparison.parse(c)).not.toThrow();
    expect(c.rejudge!.usage).toEqual(spent);
    expect(c.cases[0]).toMatchObject({ key: 'demo/order', kind: 'regressed', counted: true });
  });

  it('terminal: a Re-judge usage line and the legend', () => {
    let out = '';
    void terminalReporter({ out: { write: (t: string) => (out += t) }, live: false, verbose: false }).onEnd!(ended);
    const plain = stripAnsi(out);
    expect(plain).toContain("Re-judge  judge 4 calls 1,200 tok $0.0031 (re-judging the baseline; not in the run's usage)");
    expect(plain).toContain(
      'How a case is classified: an assertion no judge graded (a deterministic check, gate or soft) that fails more often than in the baseline makes its case regressed, whatever happened to its judges;',
    );
  });

  it('GitHub step summary and JUnit: the legend and the spend', async () => {
    const md = join(mkdtempSync(join(tmpdir(), 'legend-')), 'summary.md');
    await githubReporter({ out: { write: () => true }, summaryFile: md }).onEnd!(ended);
    const text = readFileSync(md, 'utf8');
    expect(text).toContain('_How a case is classified: an assertion no judge graded');
    expect(text).toContain('Re-judge: judge 4 calls 1,200 tok $0.0031');
    const xml = join(mkdtempSync(join(tmpdir(), 'legend-')), 'junit.xml');
    const r = junitReporter({ path: xml });
    void r.onCaseEnd!(demoCase('order'), view('order'));
    await r.onEnd!(ended);
    const x = readFileSync(xml, 'utf8');
    expect(x).toContain('<property name="comparison-legend" value="an assertion no judge graded');
    expect(x).toContain('<property name="rejudge-usage" value="judge 4 calls 1,200 tok $0.0031');
  });
});
