/**
 * `passAt` / `passHat` as the planner resolves them: the case's over its suite's, the default `min`,
 * and the settings it refuses (N < k, adaptive trials, both at once) as user errors naming file and field.
 */
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { removeTempDirs } from '../support/cli.js';
import { writeProject } from '../support/temp-project.js';
import { checkSelected, loadCases, type PlanDefaults } from '../../src/suite/plan.js';
import { UserError } from '../../src/core/errors.js';
import { writeFileSync } from 'node:fs';
import { runCliInProcess } from '../support/cli-in-process.js';

afterAll(removeTempDirs);

const defaults: PlanDefaults = { repeat: 1, passRate: 1, timeoutMs: 1000, targets: ['agent'], judgeDefaults: { severity: 'gate', threshold: 0.5 } };

async function plan(lines: string[], d: PlanDefaults = defaults) {
  const dir = writeProject({ 's.eval.yaml': ['suite: s', 'target: agent', ...lines, ''].join('\n') });
  const cases = await loadCases([join(dir, 's.eval.yaml')], dir, d);
  checkSelected(cases);
  return cases;
}

async function planError(lines: string[], d: PlanDefaults = defaults): Promise<UserError> {
  const err = await plan(lines, d).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(UserError);
  return err as UserError;
}

const assert = 'assert: [{ type: contains, value: x }]';

describe('passAt / passHat in the plan', () => {
  it("a case's own reducer over its suite's; the suite's otherwise; min defaults to 0.5", async () => {
    const cases = await plan(['repeat: 10', 'passAt: 3', 'cases:', `  - { id: own, input: x, passHat: { k: 2, min: 0.8 }, ${assert} }`, `  - { id: inherits, input: x, ${assert} }`]);
    expect(cases.map((c) => [c.id, c.reducer])).toEqual([
      ['own', { kind: 'passHat', k: 2, min: 0.8 }],
      ['inherits', { kind: 'passAt', k: 3, min: 0.5 }],
    ]);
  });

  it("the config's passAt applies to cases whose suite and own settings give none", async () => {
    const cases = await plan(['repeat: 4', 'cases:', `  - { id: a, input: x, ${assert} }`, `  - { id: b, input: x, passHat: 2, ${assert} }`], {
      ...defaults,
      reducers: { passAt: { k: 4, min: 0.9 } },
    });
    expect(cases.map((c) => c.reducer)).toEqual([
      { kind: 'passAt', k: 4, min: 0.9 },
      { kind: 'passHat', k: 2, min: 0.5 },
    ]);
  });

  it('N < k is a user error naming the file and field', async () => {
    const err = await planError(['cases:', `  - { id: few, input: x, repeat: 2, passAt: 3, ${assert} }`]);
    expect(err.field).toBe('passAt');
    expect(err.file).toBe('s.eval.yaml');
    expect(err.message).toMatch(/^s\.eval\.yaml:\d+: passAt: 3 needs at least 3 trials to estimate from, but this case runs 2 \(repeat\)/);
  });

  it('--repeat below k is the same error', async () => {
    const err = await planError(['cases:', `  - { id: few, input: x, repeat: 10, passHat: 3, ${assert} }`], { ...defaults, override: { repeat: 2 } });
    expect(err.field).toBe('passHat');
  });

  it('adaptive trials are refused: they stop on the pass rate and would bias the estimate', async () => {
    const err = await planError(['cases:', `  - { id: adapt, input: x, repeat: { min: 3, max: 30 }, passAt: 3, ${assert} }`]);
    expect(err.field).toBe('passAt');
    expect(err.message).toContain('adaptive');
  });

  it('passAt and passHat together are refused', async () => {
    const err = await planError(['cases:', `  - { id: both, input: x, repeat: 10, passAt: 3, passHat: 3, ${assert} }`]);
    expect(err.field).toBe('passHat');
  });

  it('the schema refuses k below 1 and min outside (0, 1]', async () => {
    await expect(plan(['cases:', `  - { id: zero, input: x, repeat: 3, passAt: 0, ${assert} }`])).rejects.toThrow(/passAt/);
    await expect(plan(['cases:', `  - { id: zero, input: x, repeat: 3, passAt: { k: 2, min: 0 }, ${assert} }`])).rejects.toThrow(/passAt/);
  });
});

describe('N < k at the command line', () => {
  const project = () => {
    const dir = writeProject({
      'evals/a.eval.yaml': ['suite: s', 'target: echo', 'cases:', `  - { id: estimated, input: x, passAt: 3, ${assert} }`, `  - { id: plain, input: x, ${assert} }`, ''].join('\n'),
    });
    writeFileSync(join(dir, 'evals.config.mjs'), 'export default { targets: { echo: (input) => input } };\n');
    return dir;
  };

  it('--repeat 3..30 runs when --filter leaves the passAt case out: only the selected cases are checked', async () => {
    const r = await runCliInProcess(['run', '--no-results', '--repeat', '3..30', '--filter', 's/plain'], { cwd: project() });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toContain('s/plain');
    expect(r.stdout).not.toContain('s/estimated');
  });

  it('--repeat 3..30 is still refused when the passAt case is selected', async () => {
    const r = await runCliInProcess(['run', '--no-results', '--repeat', '3..30', '--filter', 's/estimated'], { cwd: project() });
    expect(r.code, r.stdout + r.stderr).toBe(2);
    expect(r.stderr).toContain('evals/a.eval.yaml:4: passAt: needs a fixed trial count');
  });

  it('`agent-evals run` exits 2 naming the file and field, without a stack trace and without running a trial', async () => {
    const dir = writeProject({ 'evals/a.eval.yaml': ['suite: s', 'target: echo', 'cases:', `  - { id: few, input: x, repeat: 2, passAt: 3, ${assert} }`, ''].join('\n') });
    writeFileSync(join(dir, 'evals.config.mjs'), "export default { targets: { echo: (input) => { throw new Error('ran ' + input); } } };\n");
    const r = await runCliInProcess(['run', '--no-results'], { cwd: dir });
    expect(r.code, r.stdout + r.stderr).toBe(2);
    expect(r.stderr).toContain('evals/a.eval.yaml:4: passAt: 3 needs at least 3 trials to estimate from, but this case runs 2 (repeat)');
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });
});
