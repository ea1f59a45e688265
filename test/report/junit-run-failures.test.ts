/**
 * The JUnit reporter and a run that fails on a run-level gate, not on a case (here `failOnFlaky` with
 * every case passing): the report holds one failed testcase for the run, naming the failure, so a JUnit
 * view is red when the exit code is 1 (it read failures="0"). A run with no such failure has none.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { junitReporter } from '../../src/report/junit.js';
import { removeTempDirs, tempDir } from '../support/cli.js';
import { runInProcess } from '../support/run-in-process.js';

afterAll(removeTempDirs);

const FLAKY = 'suite: f\ntarget: alt\nrepeat: 4\npassRate: 0.5\ncases:\n  - { id: a, input: hi, assert: [{ type: contains, value: done }] }\n';

async function junitOf(failOnFlaky: boolean): Promise<{ xml: string; exitCode: number; failures: string[] }> {
  const path = join(tempDir(), 'junit.xml');
  let n = 0;
  const run = await runInProcess({
    files: { 'f.eval.yaml': FLAKY },
    config: { failOnFlaky, earlyStop: false, concurrency: 1, targets: { alt: () => (n++ % 2 ? 'done' : 'nope') } },
    reporters: () => [junitReporter({ path })],
  });
  expect(run.results.summary.cases).toMatchObject({ passed: 1, failed: 0 });
  return { xml: readFileSync(path, 'utf8'), exitCode: run.exitCode, failures: run.results.summary.failures };
}

describe('JUnit: a run failed by a run-level gate', () => {
  it('is one failed testcase of its own, with the failure as its message', async () => {
    const { xml, exitCode, failures } = await junitOf(true);
    expect(exitCode).toBe(1);
    expect(failures[0]).toContain('--fail-on-flaky');
    expect(xml).toMatch(/<testsuites name="agent-evals" tests="2" failures="1" /);
    expect(xml).toContain('<testsuite name="agent-evals run" tests="1" failures="1" skipped="0" time="0.000">');
    expect(xml).toMatch(/<testcase classname="agent-evals run" name="run" time="0.000">\s*<failure type="run" message="1 flaky case \(both passing and failing trials\) fail the run: --fail-on-flaky/);
    // The case itself passed, and stays a passed testcase.
    expect(xml).toMatch(/<testsuite name="f" tests="1" failures="0" /);
  });

  it('a run with no run-level failure has no such testcase', async () => {
    const { xml, exitCode } = await junitOf(false);
    expect(exitCode).toBe(0);
    expect(xml).toMatch(/<testsuites name="agent-evals" tests="1" failures="0" /);
    expect(xml).not.toContain('agent-evals run');
  });
});
