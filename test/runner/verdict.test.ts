import { describe, expect, it } from 'vitest';
import { caseVerdict, interruptedTrial, isDecided, isFailedGate, meanStd, requiredPasses, RunningStats, trialScore, trialVerdict } from '../../src/runner/loop/verdict.js';
import { caseResult } from '../../src/runner/loop/case-result.js';
import { exitCodeFor, runGateFailures } from '../../src/runner/loop/exit-code.js';
import type { AssertionResult, Summary, TrialResult, TrialVerdict } from '../../src/core/results-schema.js';
import type { PlannedCase } from '../../src/suite/plan.js';
import type { Usage } from '../../src/core/usage.js';

type Graded = Pick<AssertionResult, 'severity' | 'status' | 'score' | 'weight'>;

const gate = (status: Graded['status'], score = status === 'passed' ? 1 : 0, weight = 1): Graded => ({ severity: 'gate', status, score, weight });
const soft = (status: Graded['status'], score: number, weight = 1): Graded => ({ severity: 'soft', status, score, weight });

describe('requiredPasses', () => {
  it.each([
    // [planned, passRate, required]
    [1, 1.0, 1],
    [1, 0.01, 1],
    [1, 0, 1],
    [5, 0.8, 4],
    [5, 0.6, 3],
    [5, 0.61, 4],
    [5, 1.0, 5],
    [10, 0.01, 1],
    [10, 0.7, 7],
    [10, 0.71, 8],
    // Float products just above an integer must not round up: 0.07 * 100 = 7.000000000000001,
    // 0.14 * 100 = 14.000000000000002, (0.1 + 0.2) * 10 = 3.0000000000000004.
    [100, 0.07, 7],
    [100, 0.14, 14],
    [10, 0.1 + 0.2, 3],
    // … and just below one must still round up: 0.57 * 100 = 56.99999999999999.
    [100, 0.57, 57],
    [10, 1.0, 10],
    [10, 0, 1],
    [3, 0.5, 2],
    [100, 0.29, 29], // 0.29 * 100 = 28.999999999999996
    [3, 2 / 3, 2],
  ])('N=%d at rate %d needs %d', (planned, rate, required) => {
    expect(requiredPasses(planned, rate)).toBe(required);
  });

  it('never asks for more passes than trials, nor fewer than one', () => {
    for (let n = 1; n <= 40; n++) {
      for (let k = 0; k <= 100; k++) {
        const r = requiredPasses(n, k / 100);
        expect(r).toBeGreaterThanOrEqual(1);
        expect(r).toBeLessThanOrEqual(n);
        // r passes meet the rate (up to float noise), r - 1 do not (unless r is the floor of 1).
        expect(r / n).toBeGreaterThanOrEqual(k / 100 - 1e-9);
        if (r > 1) expect((r - 1) / n).toBeLessThan(k / 100);
      }
    }
  });
});

describe('trialVerdict and trialScore', () => {
  it('a failed gate fails the trial and scores it 0, whatever the soft scores', () => {
    const as = [gate('passed'), gate('failed'), soft('passed', 0.9)];
    expect(trialVerdict(as, false)).toBe('failed');
    expect(trialScore(as, false)).toBe(0);
  });

  it('an errored assertion counts as a failed gate, even when it is soft', () => {
    expect(isFailedGate(soft('error', 0))).toBe(true);
    expect(isFailedGate(gate('error', 0))).toBe(true);
    expect(isFailedGate(soft('failed', 0))).toBe(false);
    expect(isFailedGate(gate('skipped', 0))).toBe(false);
    const as = [gate('passed'), soft('error', 0), soft('passed', 1)];
    expect(trialVerdict(as, false)).toBe('failed');
    expect(trialScore(as, false)).toBe(0);
  });

  it('a target error fails the trial with score 0 even when every assertion passed', () => {
    expect(trialVerdict([gate('passed'), soft('passed', 1)], true)).toBe('failed');
    expect(trialScore([gate('passed'), soft('passed', 1)], true)).toBe(0);
    expect(trialVerdict([], true)).toBe('failed');
  });

  it('a missed soft assertion makes the trial scored, with the weighted mean of soft scores', () => {
    const as = [gate('passed'), soft('failed', 0.2, 3), soft('passed', 1, 1)];
    expect(trialVerdict(as, false)).toBe('scored');
    // (0.2·3 + 1·1) / 4 = 0.4; gates do not enter the mean.
    expect(trialScore(as, false)).toBeCloseTo(0.4, 12);
  });

  it('skipped assertions are excluded from the score and do not fail the trial', () => {
    const as = [gate('passed'), soft('passed', 0.8, 1), soft('skipped', 0, 5), gate('skipped', 0)];
    expect(trialVerdict(as, false)).toBe('passed');
    expect(trialScore(as, false)).toBeCloseTo(0.8, 12);
  });

  it('scores 1 when nothing soft was scored', () => {
    expect(trialScore([gate('passed'), gate('passed')], false)).toBe(1);
    expect(trialScore([soft('skipped', 0)], false)).toBe(1);
    expect(trialScore([], false)).toBe(1);
    expect(trialVerdict([], false)).toBe('passed');
  });

  it('soft assertions that all passed keep the verdict passed, score is their weighted mean', () => {
    const as = [soft('passed', 0.75, 1), soft('passed', 1, 3)];
    expect(trialVerdict(as, false)).toBe('passed');
    expect(trialScore(as, false)).toBeCloseTo((0.75 + 3) / 4, 12);
  });
});

describe('caseVerdict', () => {
  const v = (...xs: TrialVerdict[]) => xs;
  it('passes with the required number of passed trials, even with misses', () => {
    expect(caseVerdict(v('passed', 'passed', 'failed'), 2)).toBe('passed');
    expect(caseVerdict(v('passed'), 1)).toBe('passed');
  });
  it('fails short of required when some trial failed outright', () => {
    expect(caseVerdict(v('passed', 'failed', 'failed'), 2)).toBe('failed');
    expect(caseVerdict(v('passed', 'scored', 'failed'), 3)).toBe('failed');
  });
  it('is scored short of required when the misses were only soft', () => {
    expect(caseVerdict(v('passed', 'scored', 'scored'), 2)).toBe('scored');
  });
  it('only passed trials count: scored trials never make up the required passes', () => {
    expect(caseVerdict(v('scored', 'scored', 'scored'), 1)).toBe('scored');
  });
  it('is skipped when no trial ran', () => {
    expect(caseVerdict([], 1)).toBe('skipped');
  });
  it('never fails on interrupted trials: they decide nothing', () => {
    expect(caseVerdict(v('interrupted', 'interrupted'), 1)).toBe('skipped');
    expect(caseVerdict(v('passed', 'interrupted'), 1)).toBe('passed');
    expect(caseVerdict(v('scored', 'interrupted'), 2)).toBe('scored');
  });
});

describe('interruptedTrial', () => {
  it('marks a cut-off trial interrupted, keeping its error; a trial that passed anyway stands', () => {
    expect(interruptedTrial({ verdict: 'failed', error: 'target t: interrupted' })).toEqual({ verdict: 'interrupted', interrupted: true, error: 'target t: interrupted' });
    expect(interruptedTrial({ verdict: 'failed' })).toEqual({ verdict: 'interrupted', interrupted: true, error: 'interrupted' });
    expect(interruptedTrial({ verdict: 'passed' })).toEqual({ verdict: 'passed' });
  });
});

describe('isDecided', () => {
  it('is decided once the required passes are in', () => {
    expect(isDecided(4, 4, 5, 4)).toBe(true);
    expect(isDecided(3, 4, 5, 4)).toBe(false);
  });
  it('is decided once the trials left cannot reach the required passes', () => {
    // 10 planned, all needed: the first miss decides it.
    expect(isDecided(0, 1, 10, 10)).toBe(true);
    expect(isDecided(1, 1, 10, 10)).toBe(false);
    // 5 planned, 3 needed: 1 pass after 3 trials can still reach 3 with 2 left …
    expect(isDecided(1, 3, 5, 3)).toBe(false);
    // … but not 0 passes after 3 trials.
    expect(isDecided(0, 3, 5, 3)).toBe(true);
  });
  it('a fresh case with N >= 1 is never decided', () => {
    for (let n = 1; n < 10; n++) expect(isDecided(0, 0, n, requiredPasses(n, 1))).toBe(false);
  });
});

describe('meanStd and RunningStats', () => {
  it('uses the population stddev', () => {
    expect(meanStd([2, 4, 4, 4, 5, 5, 7, 9])).toEqual({ mean: 5, stddev: 2 });
    const { mean, stddev } = meanStd([0, 1]);
    expect(mean).toBe(0.5);
    expect(stddev).toBe(0.5); // the sample stddev would be 0.7071…
  });
  it('is zero on empty and single inputs', () => {
    expect(meanStd([])).toEqual({ mean: 0, stddev: 0 });
    expect(meanStd([0.3])).toEqual({ mean: 0.3, stddev: 0 });
    expect(new RunningStats().result()).toEqual({ mean: 0, stddev: 0 });
  });

  it('RunningStats equals meanStd on random data', () => {
    // mulberry32: deterministic pseudo-random numbers, so a failure reproduces.
    let seed = 0x2f6b1d3;
    const rand = () => {
      seed |= 0;
      seed = (seed + 0x6d2b79f5) | 0;
      let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
    for (const [size, offset, spread] of [
      [1, 0, 1],
      [2, 0, 1],
      [17, 0, 1],
      [500, 0, 1],
      [1000, 1e6, 1e-3], // large offset, tiny spread: the naive sum-of-squares formula loses it
    ] as const) {
      const values = Array.from({ length: size }, () => offset + rand() * spread);
      const stats = new RunningStats();
      for (const x of values) stats.add(x);
      const expected = meanStd(values);
      const got = stats.result();
      expect(stats.count).toBe(size);
      expect(Math.abs(got.mean - expected.mean)).toBeLessThanOrEqual(1e-9 * Math.max(1, Math.abs(expected.mean)));
      expect(Math.abs(got.stddev - expected.stddev)).toBeLessThanOrEqual(1e-7 * Math.max(spread, expected.stddev));
      if (size > 1) expect(got.stddev).toBeGreaterThan(0);
    }
  });
});

// ---------------------------------------------------------------------------------------------

const usage = (over: Partial<Usage> = {}): Usage => ({ calls: 0, inputTokens: 0, outputTokens: 0, cachedInputTokens: 0, reasoningTokens: 0, costUsd: 0, ...over });

function plannedCase(over: Partial<PlannedCase> = {}): PlannedCase {
  return {
    index: 0,
    key: 'suite/a',
    suite: 'suite',
    id: 'a',
    file: 'evals/a.eval.yaml',
    line: 3,
    tags: ['t1'],
    target: 'agent',
    targetName: 'agent',
    repeat: 5,
    passRate: 0.8,
    timeoutMs: 1000,
    judge: undefined,
    judgeDefaults: { severity: 'soft', threshold: 0.7 },
    input: 'hi',
    messages: [{ role: 'user', content: 'hi' }],
    turns: undefined,
    reference: undefined,
    assertions: [],
    check: undefined,
    ...over,
  };
}

function assertion(over: Partial<AssertionResult> = {}): AssertionResult {
  return { name: 'a', kind: 'contains', severity: 'gate', status: 'passed', score: 1, threshold: 1, weight: 1, message: 'ok', ...over };
}

function trial(index: number, verdict: TrialVerdict, score: number, over: Partial<TrialResult> = {}): TrialResult {
  return {
    index,
    verdict,
    score,
    durationMs: 10,
    reply: `reply ${index}`,
    usage: { target: usage(), judge: usage() },
    assertions: [],
    trace: {},
    ...over,
  };
}

describe('caseResult', () => {
  it('reduces trials: verdict, passes, required, notRun, score, usage, trials by index', () => {
    const trials = [
      trial(2, 'failed', 0, { usage: { target: usage({ calls: 1, inputTokens: 10, costUsd: 0.5 }), judge: usage() } }),
      trial(0, 'passed', 1, { usage: { target: usage({ calls: 2, inputTokens: 5, outputTokens: 7, costUsd: 0.25 }), judge: usage({ calls: 1, outputTokens: 3, costUsd: 0.1 }) } }),
      trial(1, 'passed', 0.5),
    ];
    const r = caseResult(plannedCase({ repeat: 5, passRate: 0.8 }), trials, 'early-stop');
    expect(r.trials.map((t) => t.index)).toEqual([0, 1, 2]);
    expect(r).toMatchObject({
      suite: 'suite',
      id: 'a',
      file: 'evals/a.eval.yaml',
      line: 3,
      tags: ['t1'],
      verdict: 'failed',
      passed: 2,
      required: 4,
      planned: 5,
      notRun: 2,
      notRunReason: 'early-stop',
    });
    expect(r.score.mean).toBeCloseTo(0.5, 12);
    expect(r.score.stddev).toBeCloseTo(Math.sqrt(1 / 6), 12);
    expect(r.judgeScore).toBeNull();
    expect(r.usage.target).toEqual(usage({ calls: 3, inputTokens: 15, outputTokens: 7, costUsd: 0.75 }));
    expect(r.usage.judge).toEqual(usage({ calls: 1, outputTokens: 3, costUsd: 0.1 }));
  });

  it('keeps interrupted trials out of the verdict and the score', () => {
    const r = caseResult(plannedCase({ repeat: 2, passRate: 1 }), [trial(0, 'passed', 1), trial(1, 'interrupted', 0)], 'interrupted');
    expect(r).toMatchObject({ verdict: 'skipped', passed: 1, notRun: 0 });
    expect(r.score).toEqual({ mean: 1, stddev: 0 });
    expect(r.trials).toHaveLength(2);
  });

  it('leaves notRunReason out when every trial ran', () => {
    const r = caseResult(plannedCase({ repeat: 2, passRate: 1 }), [trial(0, 'passed', 1), trial(1, 'passed', 1)], 'early-stop');
    expect(r.notRun).toBe(0);
    expect(r).not.toHaveProperty('notRunReason');
    expect(r.verdict).toBe('passed');
  });

  it('an unknown cost anywhere makes the case cost null, never 0', () => {
    const r = caseResult(plannedCase({ repeat: 2 }), [
      trial(0, 'passed', 1, { usage: { target: usage({ calls: 1, inputTokens: 3, costUsd: null }), judge: usage() } }),
      trial(1, 'passed', 1, { usage: { target: usage({ calls: 1, inputTokens: 3, costUsd: 0.2 }), judge: usage() } }),
    ]);
    expect(r.usage.target.costUsd).toBeNull();
    expect(r.usage.target.inputTokens).toBe(6);
  });

  it('judgeScore: mean and stddev of per-trial means over judged, graded assertions only', () => {
    const judge = { provider: 'openai', model: 'gpt-x', usage: usage() };
    const r = caseResult(plannedCase({ repeat: 3, passRate: 1 }), [
      trial(0, 'passed', 1, { assertions: [assertion({ judge, score: 0.6, severity: 'soft' }), assertion({ judge, score: 1, severity: 'soft' }), assertion({ score: 0 })] }),
      trial(1, 'passed', 1, { assertions: [assertion({ judge, score: 0.4, severity: 'soft', status: 'failed' }), assertion({ judge, score: 0, status: 'skipped' })] }),
      trial(2, 'failed', 0, { assertions: [assertion({ judge, score: 0, status: 'error' })] }),
    ]);
    // Trial 0: (0.6 + 1) / 2 = 0.8; trial 1: 0.4 (the skipped one is left out); trial 2: nothing graded.
    expect(r.judgeScore!.mean).toBeCloseTo(0.6, 12);
    expect(r.judgeScore!.stddev).toBeCloseTo(0.2, 12);
  });

  it('a case with no trial run is skipped with every trial not run', () => {
    const r = caseResult(plannedCase({ repeat: 4, passRate: 1 }), [], 'bail');
    expect(r).toMatchObject({ verdict: 'skipped', passed: 0, planned: 4, notRun: 4, notRunReason: 'bail', trials: [] });
    expect(r.score).toEqual({ mean: 0, stddev: 0 });
  });
});

// ---------------------------------------------------------------------------------------------

function summary(over: { cases?: Partial<Summary['cases']>; trials?: Partial<Summary['trials']>; score?: Summary['score']; failures?: string[] } = {}): Summary {
  return {
    cases: { total: 3, passed: 3, failed: 0, scored: 0, skipped: 0, ...over.cases },
    trials: { planned: 10, run: 10, notRun: 0, passed: 10, ...over.trials },
    score: over.score ?? { mean: 1, stddev: 0 },
    usage: { target: usage(), judge: usage(), total: usage() },
    counters: { judgeCallsSkippedByGates: 0, judgeCallsFromCache: 0, judgeTokensSavedByCache: 0, trialsNotRunEarlyStop: 0 },
    failures: over.failures ?? [],
    warnings: [],
  };
}

describe('exitCodeFor', () => {
  const plain = { strict: false, interrupted: false };
  it('0 when every case passed', () => {
    expect(exitCodeFor(summary(), plain)).toBe(0);
  });
  it('1 when a case failed', () => {
    expect(exitCodeFor(summary({ cases: { passed: 2, failed: 1 } }), plain)).toBe(1);
  });
  it('a scored case fails the run only with --strict', () => {
    const s = summary({ cases: { passed: 2, scored: 1 } });
    expect(exitCodeFor(s, plain)).toBe(0);
    expect(exitCodeFor(s, { strict: true, interrupted: false })).toBe(1);
  });
  it('skipped cases alone do not fail the run', () => {
    expect(exitCodeFor(summary({ cases: { passed: 2, skipped: 1 } }), { strict: true, interrupted: false })).toBe(0);
  });
  it('1 when a run-level gate failed, though every case passed', () => {
    expect(exitCodeFor(summary({ failures: ['mean score 0.500 is below --min-score 0.9'] }), plain)).toBe(1);
  });
  it('130 when interrupted, whatever else happened', () => {
    expect(exitCodeFor(summary(), { strict: false, interrupted: true })).toBe(130);
    expect(exitCodeFor(summary({ cases: { failed: 2 }, failures: ['x'] }), { strict: true, interrupted: true })).toBe(130);
  });
});

describe('runGateFailures', () => {
  it('no gates, no failures', () => {
    expect(runGateFailures(summary({ score: { mean: 0, stddev: 0 }, trials: { passed: 0 } }), {})).toEqual([]);
  });
  it('--min-score compares the mean trial score', () => {
    const s = summary({ score: { mean: 0.75, stddev: 0.1 } });
    expect(runGateFailures(s, { minScore: 0.75 })).toEqual([]);
    const out = runGateFailures(s, { minScore: 0.8 });
    expect(out).toHaveLength(1);
    expect(out[0]).toContain('0.750');
    expect(out[0]).toContain('--min-score 0.8');
  });
  it('--min-pass-rate compares passed / run trials (not planned)', () => {
    const s = summary({ trials: { planned: 10, run: 4, notRun: 6, passed: 3 } });
    expect(runGateFailures(s, { minPassRate: 0.75 })).toEqual([]);
    const out = runGateFailures(s, { minPassRate: 0.8 });
    expect(out).toHaveLength(1);
    expect(out[0]).toContain('0.750');
    expect(out[0]).toContain('--min-pass-rate 0.8');
  });
  it('--min-pass-rate with no trial run fails (rate 0)', () => {
    expect(runGateFailures(summary({ trials: { planned: 2, run: 0, notRun: 2, passed: 0 } }), { minPassRate: 0.1 })).toHaveLength(1);
  });
  it('reports both gates when both miss', () => {
    expect(runGateFailures(summary({ score: { mean: 0.1, stddev: 0 }, trials: { run: 10, passed: 1 } }), { minScore: 0.5, minPassRate: 0.5 })).toHaveLength(2);
  });
});
