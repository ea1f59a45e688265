/**
 * A case passing 2 of its 4 trials passes (it needs 2) but is `flaky`, shown with its pass-rate
 * interval; `--fail-on-flaky` (or `failOnFlaky: true` in the config) turns the exit code to 1.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { removeTempDirs } from '../support/cli.js';
import { runCliInProcess } from '../support/cli-in-process.js';
import { writeProject } from '../support/temp-project.js';
import { ResultsSchema } from '../../src/core/results-schema.js';

afterAll(() => removeTempDirs());

const CONFIG = `export default {
  evals: ['*.eval.yaml'],
  outputDir: '.out',
  earlyStop: false,
  failOnFlaky: process.env.FAIL_ON_FLAKY === '1',
  targets: {
    // "flip": even trials pass, odd ones fail (2 of 4); anything else always passes.
    agent: (input, ctx) => (input === 'flip' && ctx.trial.trial % 2 === 1 ? 'fail' : 'pass'),
  },
};
`;

const EVALS = `suite: wobbly
target: agent
repeat: 4
cases:
  - id: coin
    input: flip
    passRate: 0.5
    assert: [{ type: equals, value: pass }]
  - id: rock
    input: hold
    assert: [{ type: equals, value: pass }]
`;

describe('flaky cases', () => {
  const dir = writeProject({ 'evals.config.mjs': CONFIG, 'wobbly.eval.yaml': EVALS });

  it('names a 2-of-4 case flaky with its interval, and exits 0 without --fail-on-flaky', async () => {
    const r = await runCliInProcess(['run', '--json', 'results.json'], { cwd: dir });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const coin = r.stdout.split('\n').find((l) => l.includes('wobbly/coin'));
    expect(coin).toContain('pass 2/4 (50%, 95% CI 15–85%)');
    expect(coin).toContain('flaky');
    expect(r.stdout.split('\n').find((l) => l.includes('wobbly/rock'))).not.toContain('flaky');
    expect(r.stdout).toContain('Flaky     1 flaky case (passing and failing trials): wobbly/coin');
    expect(r.stdout).toContain('Pass rate 6/8 (75%, 95% CI');

    const results = ResultsSchema.parse(JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')));
    const [c, rock] = results.cases;
    expect(c).toMatchObject({ id: 'coin', verdict: 'passed', passed: 2, flaky: true, passRate: { passed: 2, trials: 4, rate: 0.5 } });
    expect(c!.passRate!.low).toBeCloseTo(0.15, 3);
    expect(c!.passRate!.high).toBeCloseTo(0.85, 3);
    expect(rock).toMatchObject({ id: 'rock', verdict: 'passed', flaky: false });
    expect(results.summary.cases).toMatchObject({ total: 2, passed: 2, flaky: 1 });
    expect(results.summary.failures).toEqual([]);
  });

  it('--fail-on-flaky turns the exit code to 1 and says why', async () => {
    const r = await runCliInProcess(['run', '--fail-on-flaky', '--json', 'flag.json'], { cwd: dir });
    expect(r.code, r.stdout + r.stderr).toBe(1);
    expect(r.stdout).toContain('✗ 1 flaky case (both passing and failing trials) fail the run: --fail-on-flaky (or failOnFlaky in the config)');
    const results = ResultsSchema.parse(JSON.parse(readFileSync(join(dir, 'flag.json'), 'utf8')));
    expect(results.summary.cases.failed).toBe(0);
  });

  it('failOnFlaky in the config does the same, and --no-fail-on-flaky overrides it', async () => {
    const fromConfig = await runCliInProcess(['run'], { cwd: dir, env: { FAIL_ON_FLAKY: '1' } });
    expect(fromConfig.code, fromConfig.stdout + fromConfig.stderr).toBe(1);
    const overridden = await runCliInProcess(['run', '--no-fail-on-flaky'], { cwd: dir, env: { FAIL_ON_FLAKY: '1' } });
    expect(overridden.code, overridden.stdout + overridden.stderr).toBe(0);
  });
});
