/**
 * Runs over test/fixtures/runner, in-process as `agent-evals run` runs them (the CLI's planning, the
 * real runner and reporters): pass-rate verdicts, early stop, target errors and timeouts, scored
 * cases and strict, bail, run-level gates. The flags' parsing is the e2e tests' business.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { removeTempDirs } from '../support/cli.js';
import { caseOf } from '../support/results-helpers.js';
import { explain, runFixtureInProcess, type FixtureRunOptions } from '../support/run-fixture-in-process.js';

afterAll(removeTempDirs);

const run = (opts: FixtureRunOptions) => runFixtureInProcess('runner', opts);

describe.concurrent('pass-rate verdicts over repeated trials', () => {
  it('3 of 5 passing trials fail a case that needs passRate 0.8 (exit 1)', async () => {
    const r = await run({ selection: { filter: ['flaky/rate-08'], repeat: 5 }, flags: { earlyStop: false } });
    expect(r.code, explain(r)).toBe(1);
    expect(r.stdout).toContain('3/5 (needed 4)');
    expect(r.calls()).toHaveLength(5);
    const c = caseOf(r.results(), 'flaky/rate-08');
    expect(c).toMatchObject({ verdict: 'failed', passed: 3, required: 4, planned: 5, notRun: 0 });
    expect(c.trials.map((t) => [t.index, t.verdict])).toEqual([
      [0, 'passed'],
      [1, 'passed'],
      [2, 'passed'],
      [3, 'failed'],
      [4, 'failed'],
    ]);
    expect(c.score.mean).toBeCloseTo(0.6, 12);
    expect(c.score.stddev).toBeCloseTo(Math.sqrt(0.24), 12);
  });

  it('the same 3 of 5 pass a case that needs passRate 0.6 (exit 0)', async () => {
    const r = await run({ selection: { filter: ['flaky/rate-06'], repeat: 5 }, flags: { earlyStop: false } });
    expect(r.code, explain(r)).toBe(0);
    expect(r.stdout).toContain('3/5 (needed 3)');
    expect(r.calls()).toHaveLength(5);
    const res = r.results();
    expect(caseOf(res, 'flaky/rate-06')).toMatchObject({ verdict: 'passed', passed: 3, required: 3, planned: 5, notRun: 0 });
    expect(res.summary.cases).toMatchObject({ total: 1, passed: 1, failed: 0 });
    expect(res.summary.trials).toEqual({ planned: 5, run: 5, notRun: 0, passed: 3 });
  });
});

describe.concurrent('early stop', () => {
  it('stops a passRate 1.0 case after its first failed trial; the rest are reported not run', async () => {
    const r = await run({ selection: { filter: ['early'], repeat: 10 }, flags: { concurrency: 1 } });
    expect(r.code, explain(r)).toBe(1);
    const calls = r.calls();
    expect(calls.length).toBeGreaterThanOrEqual(1);
    expect(calls.length).toBeLessThan(10);
    const res = r.results();
    const c = caseOf(res, 'early/fail-first');
    expect(c.verdict).toBe('failed');
    expect(c.notRun).toBeGreaterThan(0);
    expect(c.notRunReason).toBe('early-stop');
    expect(c.trials).toHaveLength(calls.length);
    expect(c.trials.length + c.notRun).toBe(10);
    // Trials not run are never counted as passes.
    expect(c.passed).toBe(c.trials.filter((t) => t.verdict === 'passed').length);
    expect(res.summary.trials.notRun).toBe(c.notRun);
    expect(res.summary.trials.run).toBe(c.trials.length);
    expect(res.summary.counters.trialsNotRunEarlyStop).toBe(c.notRun);
    expect(r.stdout).toMatch(/not run: early-stop/);
  });

  it('without early stop (--no-early-stop) all 10 trials run', async () => {
    const r = await run({ selection: { filter: ['early'], repeat: 10 }, flags: { concurrency: 1, earlyStop: false } });
    expect(r.code, explain(r)).toBe(1);
    expect(r.calls()).toHaveLength(10);
    const c = caseOf(r.results(), 'early/fail-first');
    expect(c).toMatchObject({ verdict: 'failed', passed: 9, required: 10, notRun: 0 });
    expect(c).not.toHaveProperty('notRunReason');
  });

  it('stops a case once it has its required passes, reporting the passes it really had', async () => {
    // flaky:3 passes trials 0..2; passRate 0.6 of 5 needs 3, decided after the third trial.
    const r = await run({ selection: { filter: ['flaky/rate-06'], repeat: 5 }, flags: { concurrency: 1 } });
    expect(r.code, explain(r)).toBe(0);
    expect(r.calls()).toEqual(['flaky/rate-06#0', 'flaky/rate-06#1', 'flaky/rate-06#2']);
    expect(caseOf(r.results(), 'flaky/rate-06')).toMatchObject({ verdict: 'passed', passed: 3, required: 3, planned: 5, notRun: 2, notRunReason: 'early-stop' });
    expect(r.stdout).toContain('3/5 (needed 3)');
  });
});

describe.concurrent('target errors', () => {
  it('a throwing target fails its trial with the message, a slow one times out, the run goes on (exit 1)', async () => {
    const r = await run({ paths: ['evals/errors.eval.yaml'] });
    expect(r.code, explain(r)).toBe(1);
    const res = r.results();
    const throws = caseOf(res, 'errors/throws');
    expect(throws.verdict).toBe('failed');
    expect(throws.trials[0]!.error).toContain('boom from the fixture target');
    expect(throws.trials[0]!.score).toBe(0);
    const slow = caseOf(res, 'errors/slow');
    expect(slow.verdict).toBe('failed');
    expect(slow.trials[0]!.error).toMatch(/timed out/);
    expect(slow.trials[0]!.error).toContain('300');
    expect(caseOf(res, 'errors/fine')).toMatchObject({ verdict: 'passed', passed: 1 });
    expect(res.summary.cases).toMatchObject({ total: 3, passed: 1, failed: 2 });
    expect(r.stdout).toContain('boom from the fixture target');
    expect(r.calls().sort()).toEqual(['errors/fine#0', 'errors/slow#0', 'errors/throws#0']);
  });
});

describe.concurrent('strict, bail', () => {
  it('a case whose only miss is a soft similarity ends scored: exit 0, and exit 1 with --strict', async () => {
    const [plain, strict] = await Promise.all([run({ paths: ['evals/soft.eval.yaml'] }), run({ paths: ['evals/soft.eval.yaml'], flags: { strict: true } })]);
    expect(plain.code, explain(plain)).toBe(0);
    expect(strict.code, explain(strict)).toBe(1);
    const c = caseOf(plain.results(), 'soft/only-soft-misses');
    expect(c.verdict).toBe('scored');
    const [contains, similarity] = c.trials[0]!.assertions;
    expect(contains).toMatchObject({ kind: 'contains', severity: 'gate', status: 'passed' });
    expect(similarity).toMatchObject({ kind: 'similarity', severity: 'soft', status: 'failed', threshold: 0.9 });
    expect(similarity!.score).toBeLessThan(0.9);
    // The trial score is the soft score (gates do not enter it).
    expect(c.trials[0]!.score).toBeCloseTo(similarity!.score, 12);
    expect(plain.results().summary.cases.scored).toBe(1);
  });

  it('bail (--bail) stops starting trials after the first failed case', async () => {
    const [bail, control] = await Promise.all([run({ paths: ['evals/bail.eval.yaml'], flags: { concurrency: 1, bail: true } }), run({ paths: ['evals/bail.eval.yaml'], flags: { concurrency: 1 } })]);
    expect(bail.code, explain(bail)).toBe(1);
    expect(bail.calls().length).toBeGreaterThan(0);
    expect(
      bail.calls().every((l) => l.startsWith('bail/first#')),
      bail.calls().join(', '),
    ).toBe(true);
    const second = caseOf(bail.results(), 'bail/second');
    expect(second).toMatchObject({ verdict: 'skipped', planned: 2, notRun: 2, notRunReason: 'bail', trials: [] });
    expect(caseOf(bail.results(), 'bail/first').verdict).toBe('failed');
    // Without bail, the second case runs.
    expect(control.code, explain(control)).toBe(1);
    expect(control.calls()).toContain('bail/second#0');
    expect(caseOf(control.results(), 'bail/second').verdict).toBe('failed');
  });
});

describe.concurrent('run-level gates', () => {
  it('a minimum pass rate (--min-pass-rate) fails a run whose cases all passed (exit 1)', async () => {
    const args = { selection: { filter: ['flaky/rate-06'], repeat: 5 } };
    const [gated, loose] = await Promise.all([run({ ...args, flags: { earlyStop: false, minPassRate: 0.7 } }), run({ ...args, flags: { earlyStop: false, minPassRate: 0.6 } })]);
    expect(gated.code, explain(gated)).toBe(1);
    expect(gated.stdout).toContain('--min-pass-rate 0.7');
    const res = gated.results();
    expect(res.summary.cases).toMatchObject({ passed: 1, failed: 0 });
    expect(res.summary.failures).toHaveLength(1);
    expect(loose.code, explain(loose)).toBe(0);
  });

  it('a cost budget (--max-cost) stops starting trials once the budget is spent (exit 1)', async () => {
    // usage/small costs $0.002 a trial: the budget is spent after its two trials.
    const r = await run({ paths: ['evals/usage.eval.yaml'], flags: { concurrency: 1, maxCost: 0.003 } });
    expect(r.code, explain(r)).toBe(1);
    expect(r.calls()).toEqual(['usage/small#0', 'usage/small#1']);
    const res = r.results();
    expect(caseOf(res, 'usage/big')).toMatchObject({ verdict: 'skipped', notRun: 2, notRunReason: 'budget' });
    expect(res.summary.failures.join('\n')).toContain('budget');
  });
});
