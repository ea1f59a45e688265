/**
 * passAt / passHat over test/fixtures/runner/extra/pass-at-k.eval.yaml, run in-process as
 * `agent-evals run` runs it: the scripted target passes by trial index, so the passes are known.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { junitReporter } from '../../src/report/junit.js';
import { githubReporter } from '../../src/report/github.js';
import { removeTempDirs, tempDir } from '../support/cli.js';
import { caseOf } from '../support/results-helpers.js';
import { explain, runFixtureInProcess } from '../support/run-fixture-in-process.js';

afterAll(removeTempDirs);

describe('passAt and passHat verdicts', () => {
  it('passAt 3 over 10 trials with 2 passes estimates 1 − C(8,3)/C(10,3) = 0.533 and passes (min 0.5); all 10 trials run', async () => {
    const r = await runFixtureInProcess('runner', { paths: ['extra/pass-at-k.eval.yaml'], selection: { filter: ['reducers/at-3'] }, flags: { concurrency: 1 } });
    expect(r.code, explain(r)).toBe(0);
    const at = caseOf(r.results(), 'reducers/at-3');
    expect(at).toMatchObject({ verdict: 'passed', passed: 2, required: 2, planned: 10, notRun: 0 });
    expect(at.reducer).toMatchObject({ kind: 'passAt', k: 3, min: 0.5, trials: 10 });
    expect(at.reducer!.estimate).toBeCloseTo(1 - 56 / 120, 12);
    // Early stop is on by default; under passRate the case would have stopped at its first failed trial.
    expect(r.calls().filter((c) => c.startsWith('reducers/at-3#'))).toHaveLength(10);
    expect(r.stdout).toMatch(/2\/10 \(needed 2\)\s+reducers\/at-3.*pass@3 0\.533 \(min 0\.5\)/);
  });

  it('passHat { k: 3, min: 0.4 } over 10 trials with 8 passes estimates C(8,3)/C(10,3) = 0.467 and passes', async () => {
    const r = await runFixtureInProcess('runner', { paths: ['extra/pass-at-k.eval.yaml'], selection: { filter: ['reducers/hat-3'] } });
    expect(r.code, explain(r)).toBe(0);
    const hat = caseOf(r.results(), 'reducers/hat-3');
    expect(hat).toMatchObject({ verdict: 'passed', passed: 8, required: 8 });
    expect(hat.reducer!.estimate).toBeCloseTo(56 / 120, 12);
    expect(r.stdout).toContain('pass^3 0.467 (min 0.4)');
  });

  it('the same 2 of 10 fail passAt 3 with min 0.6 (exit 1); JUnit and GitHub show the estimate', async () => {
    const github: string[] = [];
    let junitPath = '';
    const r = await runFixtureInProcess('runner', {
      paths: ['extra/pass-at-k.eval.yaml'],
      selection: { filter: ['reducers/at-3-strict'] },
      // A temp folder: the fixture's folder is committed, and a report written there would dirty it.
      reporters: () => [junitReporter({ path: (junitPath = join(tempDir(), 'junit.xml')) }), githubReporter({ out: { write: (t: string) => github.push(t) }, summaryFile: undefined })],
    });
    expect(r.code, explain(r)).toBe(1);
    const c = caseOf(r.results(), 'reducers/at-3-strict');
    expect(c).toMatchObject({ verdict: 'failed', passed: 2, required: 3 });
    expect(c.reducer!.estimate).toBeCloseTo(1 - 56 / 120, 12);
    expect(readFileSync(junitPath, 'utf8')).toContain('passed 2/10 (needed 3), score 0.200 ±0.400, pass@3 0.533 (min 0.6)');
    // Annotation titles escape "," as %2C.
    expect(github.join('')).toContain('reducers/at-3-strict failed 2/10 (needed 3)%2C pass@3 0.533 (min 0.6)');
  });

  it('flaky under passAt only when the verdict turns on one trial: 5/10 (needs 2) is settled, 2/10 (needs 2) is flaky; --fail-on-flaky fails only on it', async () => {
    const selection = { filter: ['reducers/at-3', 'reducers/at-3-settled'] };
    const r = await runFixtureInProcess('runner', { paths: ['extra/pass-at-k.eval.yaml'], selection, flags: { failOnFlaky: true } });
    const settled = caseOf(r.results(), 'reducers/at-3-settled');
    // Mixed trials (5 passed, 5 failed), as under passRate, which would call it flaky.
    expect(settled).toMatchObject({ verdict: 'passed', passed: 5, required: 2, flaky: false });
    expect(caseOf(r.results(), 'reducers/at-3')).toMatchObject({ verdict: 'passed', passed: 2, required: 2, flaky: true });
    expect(r.results().summary.cases).toMatchObject({ passed: 2, flaky: 1 });
    expect(r.stdout.split('\n').find((l) => l.includes('reducers/at-3-settled'))).not.toContain('flaky');
    expect(r.stdout).toContain('1 flaky case (passing and failing trials): reducers/at-3\n');
    expect(r.code, explain(r)).toBe(1);

    // The GitHub reporter names flaky cases in the job summary.
    const summaryFile = join(tempDir(), 'summary.md');
    await runFixtureInProcess('runner', { paths: ['extra/pass-at-k.eval.yaml'], selection, reporters: () => [githubReporter({ out: { write: () => true }, summaryFile })] });
    expect(readFileSync(summaryFile, 'utf8')).toContain('1 flaky case \\(passing and failing trials\\): reducers/at-3\n');
  });

  it('a failing passAt case one pass short of its verdict is flaky', async () => {
    const r = await runFixtureInProcess('runner', { paths: ['extra/pass-at-k.eval.yaml'], selection: { filter: ['reducers/at-3-strict'] } });
    // 2/10 needs 3 for min 0.6: one more pass would flip it.
    expect(caseOf(r.results(), 'reducers/at-3-strict')).toMatchObject({ verdict: 'failed', passed: 2, required: 3, flaky: true });
  });
});
