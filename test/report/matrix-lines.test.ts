import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { MatrixTable } from '../../src/core/results-schema.js';
import { matrixMarkdown, matrixTableLines } from '../../src/report/matrix-lines.js';
import { githubReporter, mdCell } from '../../src/report/github.js';
import type { Summary } from '../../src/core/results-schema.js';
import { emptyUsage } from '../../src/core/usage.js';

const table: MatrixTable = {
  suite: 'support',
  dimension: 'target',
  rows: [
    {
      value: 'gpt-support',
      cases: 20,
      casesPassed: 18,
      passRate: { passed: 18, trials: 20, rate: 0.9 },
      interval: { low: 0.699, high: 0.972 },
      score: 0.9,
      targetCostUsd: 0.0123,
      judgeCostUsd: 0.002,
      latencyMs: { mean: 1250, p95: 2000 },
      best: ['casesPassed', 'passRate', 'score', 'latencyP95'],
    },
    {
      value: 'claude-support\x1b[31m',
      cases: 20,
      casesPassed: 15,
      passRate: { passed: 15, trials: 20, rate: 0.75 },
      interval: { low: 0.531, high: 0.888 },
      score: 0.75,
      targetCostUsd: null,
      judgeCostUsd: 0.002,
      latencyMs: { mean: 900, p95: 2400 },
      best: ['latencyMean'],
    },
  ],
  notes: ['no clear winner on pass rate: the 95% intervals of gpt-support and claude-support overlap'],
};

describe('matrix table rendering', () => {
  it('terminal: one aligned row per value, its trial count (the N compared), the best marked, unknown cost as $?, the note, no escape codes from names', () => {
    const lines = matrixTableLines(table);
    expect(lines[0]).toBe('Matrix support');
    expect(lines[1]).toMatch(/^ {2}target +cases passed +trials +pass rate \(95% CI\) +score +target cost +judge cost +mean latency +p95 latency$/);
    expect(lines[2]).toMatch(/^ {2}gpt-support +18\/20 \* +20 +90% \(70%–97%\) \* +0\.90 \* +\$0\.01 +\$0\.0020 +1\.3s +2\.0s \*$/);
    expect(lines[3]).toMatch(/15\/20 +20 +75% \(53%–89%\) +0\.75 +\$\? +\$0\.0020 +900ms \* +2\.4s$/);
    expect(lines.join('\n')).not.toContain('\x1b');
    // Columns line up: every row's pass-rate cell starts where its header does.
    const col = lines[1]!.indexOf('pass rate');
    expect(lines[2]!.slice(col)).toMatch(/^90%/);
    expect(lines[3]!.slice(col)).toMatch(/^75%/);
    expect(lines.at(-1)).toBe('  * best in its column · no clear winner on pass rate: the 95% intervals of gpt-support and claude-support overlap');
  });

  it('a table with no mark gives no key for the mark, only its notes (or nothing)', () => {
    const unmarked = { ...table, rows: table.rows.map((r) => ({ ...r, best: [] })) };
    expect(matrixTableLines(unmarked).at(-1)).toBe('  no clear winner on pass rate: the 95% intervals of gpt-support and claude-support overlap');
    const bare = { ...unmarked, notes: [] };
    expect(matrixTableLines(bare)).toHaveLength(2 + bare.rows.length);
    expect(matrixMarkdown(bare, mdCell).join('\n')).not.toContain('best in its column');
  });

  it('Markdown: a header, one row per value with escaped cells, the legend', () => {
    const md = matrixMarkdown(table, mdCell);
    expect(md).toContain('#### Matrix support');
    expect(md).toContain('| target | cases passed | trials | pass rate (95% CI) | score | target cost | judge cost | mean latency | p95 latency |');
    expect(md).toContain('| gpt-support | 18/20 \\* | 20 | 90% \\(70%–97%\\) \\* | 0.90 \\* | $0.01 | $0.0020 | 1.3s | 2.0s \\* |');
    expect(md.join('\n')).toContain('no clear winner on pass rate');
  });

  it('the GitHub step summary carries the table of a matrix run', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'agent-evals-gh-')), 'summary.md');
    const gh = githubReporter({ out: { write: () => true }, summaryFile: file });
    const summary: Summary = {
      cases: { total: 40, passed: 33, failed: 7, scored: 0, skipped: 0 },
      trials: { planned: 40, run: 40, notRun: 0, passed: 33 },
      score: { mean: 0.8, stddev: 0 },
      usage: { target: emptyUsage(), judge: emptyUsage(), total: emptyUsage() },
      counters: { judgeCallsSkippedByGates: 0, judgeCallsFromCache: 0, judgeTokensSavedByCache: 0, trialsNotRunEarlyStop: 0 },
      matrix: [table],
      failures: [],
      warnings: [],
    };
    await gh.onEnd!({ run: { id: 'r', startedAt: '2026-01-01T00:00:00Z', durationMs: 10, gitSha: null, argv: [], config: null, interrupted: false }, summary, exitCode: 1 });
    const text = readFileSync(file, 'utf8');
    expect(text).toContain('#### Matrix support');
    expect(text).toContain('| gpt-support | 18/20 \\*');
  });
});
