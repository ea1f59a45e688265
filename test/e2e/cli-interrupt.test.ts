/**
 * Ctrl-C: the first SIGINT stops scheduling, lets in-flight trials finish, writes the results of
 * what finished marked `interrupted`, and exits 130. What the run does with the signal is the subject:
 * the built CLI's `main` runs in the test worker and gets the SIGINT as its listener would (the spawned
 * binary's exit 130 on Ctrl-C is test/e2e/command-process-group.test.ts's).
 */
import { writeFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { readCountFile, removeTempDirs } from '../support/cli.js';
import { startCliInProcess } from '../support/cli-in-process.js';
import { setupFixture } from '../support/fixture-run.js';
import { readResults } from '../support/results-helpers.js';

afterAll(removeTempDirs);

describe('SIGINT', () => {
  it('exits 130 with a valid, interrupted results document holding fewer trials than planned', async () => {
    // 6 cases × 6 trials at concurrency 2. s1 and s2 answer on their own; s3..s6 wait for the
    // release file, which is written only once the CLI has said it is interrupted. So trials are
    // cut by the signal whatever the machine's speed: ordering, not time, decides the counts.
    const setup = setupFixture('runner', ['run', 'extra/gated.eval.yaml', '--concurrency', '2', '--json', '$JSON']);
    const cli = startCliInProcess(setup.args, { cwd: setup.cwd, env: setup.env });
    // A case line means the run is under way (the SIGINT handler is installed before the run starts).
    await cli.waitForStdout(/\(needed \d+\)/);
    expect(cli.kill('SIGINT')).toBe(true);
    await cli.waitForStderr(/Interrupted/);
    // Scheduling has stopped: the trials in flight may now finish (within the grace period).
    writeFileSync(setup.env.RELEASE_FILE!, '');
    const r = await cli.done;

    expect(r.code, `stdout:\n${r.stdout}\nstderr:\n${r.stderr}`).toBe(130);
    expect(r.stderr).toContain('Interrupted');
    expect(r.stdout).toContain('Interrupted');

    const res = readResults(setup.jsonPath);
    expect(res.run.interrupted).toBe(true);
    expect(res.summary.trials.planned).toBe(36);
    expect(res.summary.trials.run).toBeGreaterThanOrEqual(6);
    expect(res.summary.trials.run).toBeLessThan(36);
    expect(res.summary.trials.notRun).toBe(36 - res.summary.trials.run);
    // Every case is in the document, in plan order; the unstarted ones say why.
    expect(res.cases.map((c) => c.id)).toEqual(['s1', 's2', 's3', 's4', 's5', 's6']);
    const cut = res.cases.filter((c) => c.notRun > 0);
    expect(cut.length).toBeGreaterThan(0);
    for (const c of cut) expect(c.notRunReason).toBe('interrupted');
    // At most s1, s2 and the two gated trials in flight at the signal ran.
    expect(res.summary.trials.run).toBeLessThanOrEqual(14);
    // Trials in flight at the signal were allowed to finish: each started trial has a result,
    // and none was cut short.
    const started = readCountFile(setup.env.COUNT_FILE!);
    expect(res.summary.trials.run).toBe(started.length);
    for (const c of res.cases) for (const t of c.trials) expect(t.error, `${c.id}#${t.index}`).toBeUndefined();
    expect(res.summary.trials.passed).toBe(res.summary.trials.run);
  });
});
