/**
 * The CLI end to end over test/fixtures/runner: --timeout, command targets (processes), and the
 * results document (--json, plan order against `list`). Verdicts, early stop, strict, bail and
 * run-level gates run in-process in test/runner/run-verdicts.test.ts. Each test runs the built CLI's
 * `main` in-process (dist/, built by `npm test`; no process is the subject here: command targets are
 * still real child processes) with its own temp dir for output and call counts.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { removeTempDirs } from '../support/cli.js';
import { runCliInProcess } from '../support/cli-in-process.js';
import { explain, runFixture } from '../support/fixture-run.js';
import { caseOf, readResults } from '../support/results-helpers.js';

afterAll(removeTempDirs);

describe.concurrent('target timeouts and command targets', () => {
  it('--timeout overrides the per-case timeout', async () => {
    // errors/slow hangs for 5 s and sets timeoutMs: 300 in its file; the flag must win.
    const r = await runFixture('runner', ['run', '--filter', 'errors/slow', '--timeout', '150', '--json', '$JSON'], runCliInProcess);
    expect(r.code, explain(r)).toBe(1);
    expect(caseOf(r.results(), 'errors/slow').trials[0]!.error).toMatch(/timed out after 150 ms/);
  });

  it('command target: a non-zero exit carries the stderr tail; bad stdout says no valid AgentRun JSON', async () => {
    const r = await runFixture('runner', ['run', 'evals/command.eval.yaml', '--json', '$JSON'], runCliInProcess);
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
    const r = await runFixture('runner', ['run', 'extra/command-timeout.eval.yaml', '--json', '$JSON'], runCliInProcess);
    const t = caseOf(r.results(), 'command-timeout/slow').trials[0]!;
    expect(t.error ?? '').toMatch(/timed out after 300 ms/);
    expect(r.code).toBe(1);
  });
});

describe.concurrent('the results document', () => {
  it('keeps plan order, sums usage (total = target + judge), and records every reply', async () => {
    const args = ['evals/errors.eval.yaml', 'evals/usage.eval.yaml'];
    const [r, list] = await Promise.all([runFixture('runner', ['run', ...args, '--json', '$JSON'], runCliInProcess), runFixture('runner', ['list', ...args, '--json'], runCliInProcess)]);
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
    const r = await runFixture('runner', ['run', 'evals/select.eval.yaml', '--json'], runCliInProcess);
    expect(r.code, explain(r)).toBe(0);
    const path = join(r.tmp, 'out', 'results.json');
    expect(existsSync(path)).toBe(true);
    expect(readResults(path).cases).toHaveLength(3);
  });
});
