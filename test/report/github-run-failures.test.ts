/**
 * The `github` reporter and a run that fails on a run-level gate, not on a case (here `failOnFlaky`
 * with every case passing): the job gets an `::error` annotation naming the failure, and the step
 * summary says it under its ❌, which read "1/1 cases passed" with no reason given.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { githubReporter } from '../../src/report/github.js';
import { removeTempDirs, tempDir } from '../support/cli.js';
import { runInProcess } from '../support/run-in-process.js';

afterAll(removeTempDirs);

describe('github reporter: a run failed by a run-level gate', () => {
  it('annotates the failure and writes it into the step summary', async () => {
    const lines: string[] = [];
    const summaryFile = join(tempDir(), 'summary.md');
    let n = 0;
    const run = await runInProcess({
      files: { 'a.eval.yaml': 'suite: f\ntarget: alt\nrepeat: 4\npassRate: 0.5\ncases:\n  - { id: a, input: hi, assert: [{ type: contains, value: done }] }\n' },
      config: { failOnFlaky: true, earlyStop: false, concurrency: 1, targets: { alt: () => (n++ % 2 ? 'done' : 'nope') } },
      reporters: () => [githubReporter({ out: { write: (t: string) => lines.push(t) }, summaryFile })],
    });
    expect(run.results.summary.cases).toMatchObject({ passed: 1, failed: 0 });
    expect(run.exitCode).toBe(1);
    const [failure] = run.results.summary.failures;
    expect(failure).toContain('--fail-on-flaky');
    expect(lines.join('')).toContain(`::error title=agent-evals run failed::${failure}\n`);
    const md = readFileSync(summaryFile, 'utf8');
    expect(md).toContain('❌ 1/1 cases passed');
    expect(md).toContain('**Run failed:** 1 flaky case \\(both passing and failing trials\\) fail the run: --fail-on-flaky \\(or failOnFlaky in the config\\)');
  });
});
