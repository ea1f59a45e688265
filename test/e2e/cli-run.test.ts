/**
 * The CLI end to end over test/fixtures/runner: pass-rate verdicts, early stop, target errors and
 * timeouts, command targets, --strict, --bail, and the results document. Each test spawns
 * `node bin/agent-evals.js` (built by `npm test`) with its own temp dir for output and call counts.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { removeTempDirs } from '../support/cli.js';
import { explain, runFixture } from '../support/fixture-run.js';
import { caseOf, readResults } from '../support/results-helpers.js';

afterAll(removeTempDirs);

describe.concurrent('pass-rate verdicts over repeated trials', () => {
  it('3 of 5 passing trials fail a case that needs passRate 0.8 (exit 1)', async () => {
    const r = await runFixture('runner', ['run', '--filter', 'flaky/rate-08', '--repeat', '5', '--no-early-stop', '--json', '$JSON']);
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
    const r = await runFixture('runner', ['run', '--filter', 'flaky/rate-06', '--repeat', '5', '--no-early-stop', '--json', '$JSON']);
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
    const r = await runFixture('runner', ['run', '--filter', 'early', '--repeat', '10', '--concurrency', '1', '--json', '$JSON']);
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

  it('--no-early-stop runs all 10 trials', async () => {
    const r = await runFixture('runner', ['run', '--filter', 'early', '--repeat', '10', '--concurrency', '1', '--no-early-stop', '--json', '$JSON']);
    expect(r.code, explain(r)).toBe(1);
    expect(r.calls()).toHaveLength(10);
    const c = caseOf(r.results(), 'early/fail-first');
    expect(c).toMatchObject({ verdict: 'failed', passed: 9, required: 10, notRun: 0 });
    expect(c).not.toHaveProperty('notRunReason');
  });

  it('stops a case once it has its required passes, reporting the passes it really had', async () => {
    // flaky:3 passes trials 0..2; passRate 0.6 of 5 needs 3, decided after the third trial.
    const r = await runFixture('runner', ['run', '--filter', 'flaky/rate-06', '--repeat', '5', '--concurrency', '1', '--json', '$JSON']);
    expect(r.code, explain(r)).toBe(0);
    expect(r.calls()).toEqual(['flaky/rate-06#0', 'flaky/rate-06#1', 'flaky/rate-06#2']);
    expect(caseOf(r.results(), 'flaky/rate-06')).toMatchObject({ verdict: 'passed', passed: 3, required: 3, planned: 5, notRun: 2, notRunReason: 'early-stop' });
    expect(r.stdout).toContain('3/5 (needed 3)');
  });
});

describe.concurrent('target errors', () => {
  it('a throwing target fails its trial with the message, a slow one times out, the run goes on (exit 1)', async () => {
    const r = await runFixture('runner', ['run', 'evals/errors.eval.yaml', '--json', '$JSON']);
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

  it('--timeout overrides the per-case timeout', async () => {
    // errors/slow hangs for 5 s and sets timeoutMs: 300 in its file; the flag must win.
    const r = await runFixture('runner', ['run', '--filter', 'errors/slow', '--timeout', '150', '--json', '$JSON']);
    expect(r.code, explain(r)).toBe(1);
    expect(caseOf(r.results(), 'errors/slow').trials[0]!.error).toMatch(/timed out after 150 ms/);
  });

  it('command target: a non-zero exit carries the stderr tail; bad stdout says no valid AgentRun JSON', async () => {
    const r = await runFixture('runner', ['run', 'evals/command.eval.yaml', '--json', '$JSON']);
    expect(r.code, explain(r)).toBe(1);
    const res = r.results();
    const crashed = caseOf(res, 'command/exits-non-zero').trials[0]!;
    expect(crashed.verdict).toBe('failed');
    expect(crashed.error).toContain('exited with code 3');
    expect(crashed.error).toContain('fatal: the fixture agent crashed on purpose');
    // Only the tail: the fixture wrote ~5.6 KB of noise before the fatal line.
    expect(crashed.error!.length).toBeLessThan(3_000);
    const badJson = caseOf(res, 'command/bad-json').trials[0]!;
    expect(badJson.verdict).toBe('failed');
    expect(badJson.error).toContain('no valid AgentRun JSON');
    // The command read the trial JSON on stdin, and a log line before the result is tolerated.
    const echo = caseOf(res, 'command/echo');
    expect(echo.verdict).toBe('passed');
    expect(echo.trials[0]!.reply).toBe('echo hello #0 command/echo [{"role":"user","content":"hello"}]');
  });

  // `timeoutMs` on a command target in evals.config (CommandTargetSchema) must bound each
  // invocation; the fixture command sleeps 1.5 s, its target allows 300 ms.
  it('command target: the target-level timeoutMs from the config bounds the trial', async () => {
    const r = await runFixture('runner', ['run', 'extra/command-timeout.eval.yaml', '--json', '$JSON']);
    const t = caseOf(r.results(), 'command-timeout/slow').trials[0]!;
    expect(t.error ?? '').toMatch(/timed out after 300 ms/);
    expect(r.code).toBe(1);
  });
});

describe.concurrent('--strict, --bail', () => {
  it('a case whose only miss is a soft similarity ends scored: exit 0, and exit 1 with --strict', async () => {
    const [plain, strict] = await Promise.all([
      runFixture('runner', ['run', 'evals/soft.eval.yaml', '--json', '$JSON']),
      runFixture('runner', ['run', 'evals/soft.eval.yaml', '--strict']),
    ]);
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

  it('--bail stops starting trials after the first failed case', async () => {
    const [bail, control] = await Promise.all([
      runFixture('runner', ['run', 'evals/bail.eval.yaml', '--concurrency', '1', '--bail', '--json', '$JSON']),
      runFixture('runner', ['run', 'evals/bail.eval.yaml', '--concurrency', '1', '--json', '$JSON']),
    ]);
    expect(bail.code, explain(bail)).toBe(1);
    expect(bail.calls().length).toBeGreaterThan(0);
    expect(bail.calls().every((l) => l.startsWith('bail/first#')), bail.calls().join(', ')).toBe(true);
    const second = caseOf(bail.results(), 'bail/second');
    expect(second).toMatchObject({ verdict: 'skipped', planned: 2, notRun: 2, notRunReason: 'bail', trials: [] });
    expect(caseOf(bail.results(), 'bail/first').verdict).toBe('failed');
    // Without --bail, the second case runs.
    expect(control.code, explain(control)).toBe(1);
    expect(control.calls()).toContain('bail/second#0');
    expect(caseOf(control.results(), 'bail/second').verdict).toBe('failed');
  });
});

describe.concurrent('run-level gates', () => {
  it('--min-pass-rate fails a run whose cases all passed (exit 1)', async () => {
    const args = ['run', '--filter', 'flaky/rate-06', '--repeat', '5', '--no-early-stop'];
    const [gated, loose] = await Promise.all([
      runFixture('runner', [...args, '--min-pass-rate', '0.7', '--json', '$JSON']),
      runFixture('runner', [...args, '--min-pass-rate', '0.6']),
    ]);
    expect(gated.code, explain(gated)).toBe(1);
    expect(gated.stdout).toContain('--min-pass-rate 0.7');
    const res = gated.results();
    expect(res.summary.cases).toMatchObject({ passed: 1, failed: 0 });
    expect(res.summary.failures).toHaveLength(1);
    expect(loose.code, explain(loose)).toBe(0);
  });

  it('--max-cost stops starting trials once the budget is spent (exit 1)', async () => {
    // usage/small costs $0.002 a trial: the budget is spent after its two trials.
    const r = await runFixture('runner', ['run', 'evals/usage.eval.yaml', '--concurrency', '1', '--max-cost', '0.003', '--json', '$JSON']);
    expect(r.code, explain(r)).toBe(1);
    expect(r.calls()).toEqual(['usage/small#0', 'usage/small#1']);
    const res = r.results();
    expect(caseOf(res, 'usage/big')).toMatchObject({ verdict: 'skipped', notRun: 2, notRunReason: 'budget' });
    expect(res.summary.failures.join('\n')).toContain('budget');
  });
});

describe.concurrent('the results document', () => {
  it('keeps plan order, sums usage (total = target + judge), and records every reply', async () => {
    const args = ['evals/errors.eval.yaml', 'evals/usage.eval.yaml'];
    const [r, list] = await Promise.all([runFixture('runner', ['run', ...args, '--json', '$JSON']), runFixture('runner', ['list', ...args, '--json'])]);
    expect(r.code, explain(r)).toBe(1);
    expect(list.code, explain(list)).toBe(0);
    const res = r.results();

    // Plan order (= what `list` prints), though errors/slow finished last.
    const planned = (JSON.parse(list.stdout) as Array<{ key: string }>).map((c) => c.key);
    expect(planned).toEqual(['errors/throws', 'errors/slow', 'errors/fine', 'usage/small', 'usage/big']);
    expect(res.cases.map((c) => `${c.suite}/${c.id}`)).toEqual(planned);
    expect(r.stdout.indexOf('errors/slow')).toBeGreaterThan(r.stdout.indexOf('errors/fine'));

    // Usage: target tokens priced by the config's `pricing` (fixture:model, $1 / $2 per 1M).
    const u = res.summary.usage;
    expect(u.target).toMatchObject({ calls: 4, inputTokens: 2 * (1_000 + 200_000), outputTokens: 2 * (500 + 10_000) });
    expect(u.target.costUsd).toBeCloseTo(2 * (0.001 + 0.001) + 2 * (0.2 + 0.02), 9);
    for (const k of ['calls', 'inputTokens', 'outputTokens', 'cachedInputTokens', 'reasoningTokens'] as const) {
      expect(u.total[k], k).toBe(u.target[k] + u.judge[k]);
      expect(u.target[k], k).toBe(res.cases.reduce((s, c) => s + c.usage.target[k], 0));
    }
    expect(u.total.costUsd).toBeCloseTo((u.target.costUsd ?? NaN) + (u.judge.costUsd ?? NaN), 12);
    expect(caseOf(res, 'usage/big').trials[0]!.usage.target.costUsd).toBeCloseTo(0.22, 12);

    // Summary counts agree with the cases.
    expect(res.summary.cases.total).toBe(res.cases.length);
    for (const v of ['passed', 'failed', 'scored', 'skipped'] as const) expect(res.summary.cases[v], v).toBe(res.cases.filter((c) => c.verdict === v).length);
    expect(res.summary.trials.planned).toBe(res.cases.reduce((s, c) => s + c.planned, 0));
    expect(res.summary.trials.run).toBe(res.cases.reduce((s, c) => s + c.trials.length, 0));

    // Every trial records its reply ('' when the target threw).
    for (const c of res.cases) for (const t of c.trials) expect(typeof t.reply).toBe('string');
    expect(caseOf(res, 'usage/small').trials.map((t) => t.reply)).toEqual(['pass', 'pass']);
    expect(caseOf(res, 'errors/throws').trials[0]!.reply).toBe('');

    // Where each case came from.
    expect(caseOf(res, 'usage/big')).toMatchObject({ file: 'evals/usage.eval.yaml', line: 10, tags: ['usage'] });
    expect(res.run).toMatchObject({ interrupted: false, config: 'evals.config.mjs' });
    expect(res.run.argv).toContain('evals/usage.eval.yaml');
    expect(res.tool.name).toBe('agent-evals');
  });

  it('--json without a path writes <outputDir>/results.json', async () => {
    const r = await runFixture('runner', ['run', 'evals/select.eval.yaml', '--json']);
    expect(r.code, explain(r)).toBe(0);
    const path = join(r.tmp, 'out', 'results.json');
    expect(existsSync(path)).toBe(true);
    expect(readResults(path).cases).toHaveLength(3);
  });
});
