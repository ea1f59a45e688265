/** Dollar figures in the results document are rounded to 10 decimal places, wherever they sit. */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { jsonReporter, roundCostsIn, roundedCosts } from '../../src/report/json.js';
import type { Summary } from '../../src/core/results-schema.js';
import { caseResult } from '../support/case-result.js';
import { emptyUsage, type Usage } from '../../src/core/usage.js';
import type { CaseView } from '../../src/report/reporter.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const noisy = (costUsd: number): Usage => ({ ...emptyUsage(), calls: 1, inputTokens: 1440, costUsd });

describe('costUsd in the results JSON', () => {
  it('is rounded to 10 decimal places in the summary, the cases and their trials; null stays null', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'agent-evals-json-'));
    dirs.push(dir);
    const path = join(dir, 'results.json');
    const reporter = jsonReporter({ path, outputDir: dir, version: 'test' });
    const trialUsage = { target: noisy(0.1 + 0.2), judge: { ...emptyUsage(), costUsd: null } };
    const result = caseResult({
      usage: { target: noisy(0.0005759999999999999), judge: emptyUsage() },
      trials: [{ index: 0, verdict: 'passed', score: 1, durationMs: 1, reply: 'ok', usage: trialUsage, assertions: [], trace: {} }],
    });
    const summary: Summary = {
      cases: { total: 1, passed: 1, failed: 0, scored: 0, skipped: 0 },
      trials: { planned: 1, run: 1, notRun: 0, passed: 1 },
      score: { mean: 1, stddev: 0 },
      usage: { target: noisy(0.0005759999999999999), judge: emptyUsage(), total: noisy(1.0000000001000002) },
      counters: { judgeCallsSkippedByGates: 0, judgeCallsFromCache: 0, judgeTokensSavedByCache: 0, trialsNotRunEarlyStop: 0 },
      failures: [],
      warnings: [],
    };
    await reporter.onBegin!({ runId: 'r1', startedAt: '2026-01-01T00:00:00Z', config: null, cases: 1, trials: 1, concurrency: 1, strict: false });
    await reporter.onCaseEnd!(result, { index: 0 } as CaseView);
    await reporter.onEnd!({ run: { id: 'r1', startedAt: '2026-01-01T00:00:00Z', durationMs: 1, gitSha: null, argv: [], config: null, interrupted: false }, summary, exitCode: 0 });

    const text = readFileSync(path, 'utf8');
    expect(text).not.toMatch(/"costUsd": ?-?\d+\.\d{11,}/);
    const doc = JSON.parse(text);
    expect(doc.summary.usage.target.costUsd).toBe(0.000576);
    expect(doc.summary.usage.total.costUsd).toBe(1.0000000001);
    expect(doc.cases[0].usage.target.costUsd).toBe(0.000576);
    expect(doc.cases[0].trials[0].usage.target.costUsd).toBe(0.3);
    expect(doc.cases[0].trials[0].usage.judge.costUsd).toBeNull();
    // Tokens are untouched.
    expect(doc.cases[0].usage.target.inputTokens).toBe(1440);
  });

  it('rounds the cost fields of a streamed case as the replacer would, leaving a string that merely reads like one', () => {
    const value = { costUsd: 0.1 + 0.2, tiny: { costUsd: 5.76e-14 }, neg: { costUsd: -(0.1 + 0.2) }, none: { costUsd: null }, reply: 'say "costUsd":0.30000000000000004', tokens: 0.30000000000000004 };
    expect(roundCostsIn(JSON.stringify(value))).toBe(JSON.stringify(value, roundedCosts));
    expect(JSON.parse(roundCostsIn(JSON.stringify(value))).reply).toBe('say "costUsd":0.30000000000000004');
  });
});

describe('roundCostsIn on figures rounding leaves as they are', () => {
  it('writes what the replacer writes for short, long, large, tiny and negative figures alike', () => {
    // A fixed sequence, not Math.random: the same figures every run.
    let seed = 7;
    const next = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
    const figures: number[] = [0.0002012, 0.000048, 123456.5, 99999.0000000001, 1e21, 5e-7, 1.5e-11, -0.3, 0];
    for (let i = 0; i < 2000; i++) {
      const scale = 10 ** Math.floor(next() * 14 - 8);
      const raw = next() * scale * (next() < 0.2 ? -1 : 1);
      // Half of them written with at most 10 decimals already (the text stays as it is), half with float noise.
      figures.push(i % 2 ? Number(raw.toFixed(Math.floor(next() * 11))) : raw);
    }
    for (const costUsd of figures) {
      const value = { usage: { costUsd }, trials: [{ costUsd: costUsd / 3 }] };
      expect(roundCostsIn(JSON.stringify(value))).toBe(JSON.stringify(value, roundedCosts));
    }
  });
});
