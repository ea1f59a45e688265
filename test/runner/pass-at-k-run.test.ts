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
});
