/**
 * Every user hook is bounded: a custom assertion or a TypeScript check that never settles fails by
 * the case's `timeoutMs` (and stops at a Ctrl-C's grace), and a reporter module's hook or `create()` that never
 * settles is dropped after `reporterTimeoutMs` (or after the interrupt's grace on SIGTERM), with the
 * results written and the process ended. Where a signal or the process's own end is the subject, the
 * CLI is spawned and each hook keeps a timer alive, so nothing but the bound can end the wait; the
 * bounds alone run the CLI's `main` in-process, where a hook that never settles leaves `main` pending
 * (the test's timeout) unless the bound ends it. Needs dist/.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { removeTempDirs, spawnCli, STACK_FRAME, type CliResult, type SpawnedCli } from '../support/cli.js';
import { runCliInProcess } from '../support/cli-in-process.js';
import { writeProject } from '../support/temp-project.js';
import { caseOf, readResults } from '../support/results-helpers.js';

afterAll(removeTempDirs);

// A live timer: without a bound, the process could never end while the hook waits.
const NEVER = `new Promise(() => { setInterval(() => {}, 1000); })`;
// In-process, the worker is alive anyway: a promise that never settles, without a timer left behind.
const PENDING = `new Promise(() => {})`;

const config = (extra = '') => `export default { evals: ['*.eval.ts'], outputDir: '.out', reporters: [${extra}] };\n`;
const PASSING_EVAL = `export default {
  suite: 's',
  target: async () => 'ok',
  cases: [{ id: 'fine', input: 'x', assert: [{ type: 'contains', value: 'ok' }] }],
};
`;

/** The process's end, or a failure once `ms` have passed since the signal (the bound). */
function endsWithin(cli: SpawnedCli, ms: number): Promise<CliResult> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`still running ${ms} ms after the signal\nstdout:\n${cli.stdout()}\nstderr:\n${cli.stderr()}`)), ms);
  });
  return Promise.race([cli.done, late]).finally(() => clearTimeout(timer));
}

describe('a custom assertion that never settles', () => {
  it("fails its trial by the case's timeoutMs, naming itself, and the run ends", async () => {
    const dir = writeProject({
      'evals.config.mjs': config(),
      'slow.eval.ts': `export default {
  suite: 's',
  target: async () => 'ok',
  cases: [
    { id: 'hangs', input: 'x', timeoutMs: 300, assert: [{ type: 'custom', name: 'never', fn: () => ${PENDING} }] },
    { id: 'fine', input: 'x', assert: [{ type: 'contains', value: 'ok' }] },
  ],
};
`,
    });
    const r = await runCliInProcess(['run'], { cwd: dir, timeoutMs: 60_000 });
    expect(r.code, r.stdout + r.stderr).toBe(1);
    const res = readResults(join(dir, '.out', 'results.json'));
    const trial = caseOf(res, 's/hangs').trials[0]!;
    expect(trial.verdict).toBe('failed');
    expect(trial.assertions[0]).toMatchObject({ name: 'custom "never"', status: 'failed', message: "custom never: did not settle within 300 ms (the case's timeoutMs)" });
    expect(caseOf(res, 's/fine').verdict).toBe('passed');
  });

  it('does not hold a first Ctrl-C past the grace: the trial is recorded interrupted and the process exits 130', async () => {
    const dir = writeProject({
      'evals.config.mjs': config(),
      'slow.eval.ts': `export default {
  suite: 's',
  target: async () => 'ok',
  cases: [{ id: 'hangs', input: 'x', timeoutMs: 600000, assert: [{ type: 'custom', name: 'never', fn: () => { process.stderr.write('evaluating\\n'); return ${NEVER}; } }] }],
};
`,
    });
    const cli = spawnCli(['run'], { cwd: dir, timeoutMs: 60_000 });
    await cli.waitForStderr(/evaluating/, 30_000);
    cli.child.kill('SIGINT');
    const r = await endsWithin(cli, 10_000);
    expect(r.code, r.stdout + r.stderr).toBe(130);
    const res = readResults(join(dir, '.out', 'results.json'));
    expect(res.run.interrupted).toBe(true);
    expect(caseOf(res, 's/hangs').trials[0]!.verdict).toBe('interrupted');
  });
});

describe("a TypeScript case's check(t) that never settles", () => {
  it("fails its trial by the case's timeoutMs, naming the check, and the run ends with exit 1", async () => {
    const dir = writeProject({
      'evals.config.mjs': config(),
      'slow.eval.ts': `export default {
  suite: 's',
  target: async () => 'ok',
  cases: [
    { id: 'hangs', input: 'x', timeoutMs: 300, check: (t) => { t.contains('ok'); return ${PENDING}; } },
    { id: 'fine', input: 'x', assert: [{ type: 'contains', value: 'ok' }] },
  ],
};
`,
    });
    const r = await runCliInProcess(['run'], { cwd: dir, timeoutMs: 60_000 });
    expect(r.code, r.stdout + r.stderr).toBe(1);
    const res = readResults(join(dir, '.out', 'results.json'));
    expect(caseOf(res, 's/hangs').trials[0]).toMatchObject({ verdict: 'failed', error: "check(): did not settle within 300 ms (the case's timeoutMs)" });
    expect(caseOf(res, 's/fine').verdict).toBe('passed');
  });
});

/** A run whose reporter module's onEnd never settles (it says so on stderr first): the spawned CLI and its project. */
function runWithHangingOnEnd() {
  const dir = writeProject({
    'evals.config.mjs': config(`'./hang.mjs'`),
    'ok.eval.ts': PASSING_EVAL,
    'hang.mjs': `export default { apiVersion: 1, create: () => ({ onEnd: () => { process.stderr.write('hang: onEnd\\n'); return ${NEVER}; } }) };\n`,
  });
  return { dir, cli: spawnCli(['run'], { cwd: dir, timeoutMs: 60_000 }) };
}

describe('a reporter module that never settles', () => {
  it('in onEnd: SIGTERM ends the process within 10 s, the results written and the reporter named', async () => {
    const { dir, cli } = runWithHangingOnEnd();
    // Listed before the results document's writer: the results wait on it until it is dropped.
    await cli.waitForStderr(/hang: onEnd/, 30_000);
    cli.child.kill('SIGTERM');
    const r = await endsWithin(cli, 10_000);
    expect(r.signal, r.stderr).toBeNull();
    expect(r.stderr).toMatch(/hang\.mjs" failed in onEnd: did not settle within the 4000 ms the run gives reporters after an interrupt/);
    const res = readResults(join(dir, '.out', 'results.json'));
    expect(caseOf(res, 's/fine').verdict).toBe('passed');
    // A reporter's output is incomplete: not a green run.
    expect(r.code).toBe(2);
  });

  it('in onEnd: a second SIGTERM ends the process at once, exit 130, without waiting for the grace', async () => {
    const { cli } = runWithHangingOnEnd();
    await cli.waitForStderr(/hang: onEnd/, 30_000);
    cli.child.kill('SIGTERM');
    await cli.waitForStderr(/Interrupted/, 10_000);
    cli.child.kill('SIGTERM');
    const r = await endsWithin(cli, 10_000);
    // Not the grace's end (which drops the reporter and exits 2): the second signal's own exit.
    expect(r.code, r.stderr).toBe(130);
    expect(r.stderr).not.toContain('failed in onEnd');
  });

  it('in onCaseEnd: dropped after reporterTimeoutMs, naming it, and the run goes on to write its results', async () => {
    const dir = writeProject({
      'evals.config.mjs': `export default { evals: ['*.eval.ts'], outputDir: '.out', reporters: ['./hang.mjs'], reporterTimeoutMs: 300 };\n`,
      'ok.eval.ts': PASSING_EVAL,
      'hang.mjs': `export default { apiVersion: 1, create: () => ({ onCaseEnd: () => ${PENDING}, onEnd: () => { process.stderr.write('hang: onEnd called\\n'); } }) };\n`,
    });
    const r = await runCliInProcess(['run'], { cwd: dir, timeoutMs: 60_000 });
    expect(r.code, r.stdout + r.stderr).toBe(2);
    expect(r.stderr).toContain('hang.mjs" failed in onCaseEnd: did not settle within 300 ms (reporterTimeoutMs); it gets no further events');
    expect(r.stderr).not.toContain('hang: onEnd called');
    expect(caseOf(readResults(join(dir, '.out', 'results.json')), 's/fine').verdict).toBe('passed');
  });

  it('in create(): exit 2 naming the module and the bound, not a silent exit', async () => {
    const dir = writeProject({
      'evals.config.mjs': `export default { evals: ['*.eval.ts'], outputDir: '.out', reporters: ['./hang.mjs'], reporterTimeoutMs: 300 };\n`,
      'ok.eval.ts': PASSING_EVAL,
      // Nothing alive: without a bound, Node ends the process (exit 13) with the run never started.
      'hang.mjs': `export default { apiVersion: 1, create: () => new Promise(() => {}) };\n`,
    });
    const r = await spawnCli(['run'], { cwd: dir, timeoutMs: 60_000 }).done;
    expect(r.code, r.stdout + r.stderr).toBe(2);
    expect(r.stderr).toMatch(/hang\.mjs.*reporter module: create\(\) did not settle within 300 ms \(reporterTimeoutMs\)/);
    expect(r.stderr).not.toMatch(STACK_FRAME);
    expect(existsSync(join(dir, '.out', 'results.json'))).toBe(false);
  });
});
