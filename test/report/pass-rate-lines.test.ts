/** How reporters show a pass rate's interval, flaky cases and judge errors (hand-built results). */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CaseResult, Summary } from '../../src/core/results-schema.js';
import { emptyUsage } from '../../src/core/usage.js';
import type { CaseView } from '../../src/report/reporter.js';
import { formatPassRate } from '../../src/report/pass-rate-lines.js';
import { terminalReporter } from '../../src/report/terminal.js';
import { githubReporter } from '../../src/report/github.js';
import { stripAnsi } from '../support/cli.js';

const usage = { target: emptyUsage(), judge: emptyUsage() };

function flakyCase(): CaseResult {
  return {
    suite: 's',
    id: 'coin',
    file: 's.eval.yaml',
    line: 3,
    tags: [],
    verdict: 'passed',
    passed: 3,
    required: 3,
    planned: 5,
    notRun: 0,
    judgeErrors: 1,
    score: { mean: 0.6, stddev: 0.49 },
    judgeScore: null,
    passRate: { passed: 3, trials: 5, rate: 0.6, low: 0.2307, high: 0.8824 },
    flaky: true,
    usage,
    trials: [],
  };
}

const summary: Summary = {
  cases: { total: 1, passed: 1, failed: 0, scored: 0, skipped: 0, flaky: 1 },
  trials: { planned: 5, run: 5, notRun: 0, passed: 3, judgeErrors: 1 },
  passRate: { passed: 3, trials: 5, rate: 0.6, low: 0.2307, high: 0.8824 },
  score: { mean: 0.6, stddev: 0.49 },
  usage: { target: emptyUsage(), judge: emptyUsage(), total: emptyUsage() },
  counters: { judgeCallsSkippedByGates: 0, judgeCallsFromCache: 0, judgeTokensSavedByCache: 0, trialsNotRunEarlyStop: 0 },
  failures: [],
  warnings: [],
};
const run = { id: 'r', startedAt: '2026-01-01T00:00:00Z', durationMs: 10, gitSha: null, argv: [], config: null, interrupted: false };
const begin = { runId: 'r', startedAt: '', config: null, cases: 1, trials: 5, concurrency: 1, strict: false };

describe('pass rate lines', () => {
  it('formats passes of trials, the rate and the interval in whole percents', () => {
    expect(formatPassRate({ passed: 3, trials: 5, rate: 0.6, low: 0.2307, high: 0.8824 })).toBe('3/5 (60%, 95% CI 23–88%)');
    expect(formatPassRate({ passed: 47, trials: 50, rate: 0.94, low: 0.8378, high: 0.9794 })).toBe('47/50 (94%, 95% CI 84–98%)');
  });

  it('terminal: the interval and flaky on the case line; flaky cases and judge errors on their own lines', async () => {
    let out = '';
    const r = terminalReporter({ out: { write: (t: string) => (out += t) }, live: false, verbose: false });
    await r.onBegin!(begin);
    await r.onCaseEnd!(flakyCase(), {} as CaseView);
    await r.onEnd!({ run, summary, exitCode: 0 });
    const lines = stripAnsi(out).split('\n');
    expect(lines.find((l) => l.includes('s/coin'))).toMatch(/pass 3\/5 \(60%, 95% CI 23–88%\)\s+flaky\s+1 judge error$/);
    expect(lines).toContain('Pass rate 3/5 (60%, 95% CI 23–88%)');
    expect(lines).toContain('Flaky     1 flaky case (passing and failing trials): s/coin');
    expect(lines.filter((l) => l.startsWith('Judge errors'))).toHaveLength(1);
  });

  it('terminal: nothing of the kind for a steady run without judge errors', async () => {
    let out = '';
    const r = terminalReporter({ out: { write: (t: string) => (out += t) }, live: false, verbose: false });
    await r.onBegin!(begin);
    await r.onCaseEnd!({ ...flakyCase(), flaky: false, judgeErrors: 0, passRate: undefined }, {} as CaseView);
    await r.onEnd!({ run, summary: { ...summary, cases: { ...summary.cases, flaky: 0 }, trials: { ...summary.trials, judgeErrors: 0 } }, exitCode: 0 });
    const text = stripAnsi(out);
    expect(text).not.toMatch(/flaky|Judge errors|judge error/i);
  });

  it('github: the step summary names flaky cases and counts judge errors', async () => {
    const summaryFile = join(mkdtempSync(join(tmpdir(), 'agent-evals-gh-')), 'summary.md');
    const r = githubReporter({ out: { write: () => {} }, summaryFile });
    await r.onBegin!(begin);
    await r.onCaseEnd!(flakyCase(), {} as CaseView);
    await r.onEnd!({ run, summary, exitCode: 0 });
    const md = readFileSync(summaryFile, 'utf8');
    expect(md).toContain('1 flaky case \\(passing and failing trials\\): s/coin');
    expect(md).toContain('**Judge errors:** 1 trial failed because a judge erred, not the agent');
  });
});
