/**
 * Baselines through the CLI: `run --save-baseline`, `run --baseline`, `compare`, and their exit
 * codes (the built CLI's `main` in-process; `compare`'s exit code 1 also from the spawned binary). The target passes the first PASSES trials of case `demo/drops` (5 without it), so the
 * same eval file yields 5/5 for the baseline and 2/5 for the head run.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { removeTempDirs, runCli, STACK_FRAME, stripAnsi } from '../support/cli.js';
import { runCliInProcess } from '../support/cli-in-process.js';
import { expectStoppedBeforeTargets, runMarked, writeProject } from '../support/temp-project.js';
import { ResultsSchema } from '../../src/core/results-schema.js';

afterAll(removeTempDirs);

const CONFIG = `import { writeFileSync } from 'node:fs';
export default {
  targets: {
    scripted(input, ctx) {
      if (process.env.MARKER) writeFileSync(process.env.MARKER, 'called');
      const passes = ctx.trial.id === 'drops' ? Number(process.env.PASSES ?? 5) : 5;
      return ctx.trial.trial < passes ? 'pass' : 'fail';
    },
  },
  concurrency: 1,
};
`;
// passRate 0.4: 2/5 still passes the case, so only the comparison can fail the run.
const EVAL = (dropsInput = 'drops') => `suite: demo
target: scripted
repeat: 5
passRate: 0.4
cases:
  - id: drops
    input: ${dropsInput}
    assert: [{ type: equals, value: pass }]
  - id: steady
    input: steady
    assert: [{ type: equals, value: pass }]
`;

const P = 21 / 252; // C(7,2)·C(3,3)/C(10,5): the head run's 2 passes are the fewest its 5 trials can hold of 7
const P_TEXT = `p = ${P.toFixed(3)}`;

function project(): string {
  return writeProject({ 'evals.config.mjs': CONFIG, 'evals/demo.eval.yaml': EVAL() });
}

async function saveBaseline(dir: string): Promise<void> {
  const r = await runCliInProcess(['run', '--save-baseline', '--json', 'base.json'], { cwd: dir });
  expect(r.code, r.stdout + r.stderr).toBe(0);
  expect(existsSync(join(dir, '.agent-evals', 'baselines', 'main.json'))).toBe(true);
}

describe('run --save-baseline / --baseline', () => {
  it('5/5 → 2/5 exits 1 naming the case with p ≈ 0.083; the same run unchanged exits 0', async () => {
    expect(P_TEXT).toBe('p = 0.083');
    const dir = project();
    await saveBaseline(dir);
    const saved = ResultsSchema.parse(JSON.parse(readFileSync(join(dir, '.agent-evals', 'baselines', 'main.json'), 'utf8')));
    expect(saved.cases.map((c) => [c.id, c.passed, c.trials.length, typeof c.fingerprint])).toEqual([
      ['drops', 5, 5, 'string'],
      ['steady', 5, 5, 'string'],
    ]);

    const same = await runCliInProcess(['run', '--baseline', 'main'], { cwd: dir });
    expect(same.code, same.stdout + same.stderr).toBe(0);
    expect(stripAnsi(same.stdout)).toMatch(/0 regressed .* 2 unchanged/);

    const worse = await runCliInProcess(['run', '--baseline', 'main', '--json', 'head.json'], { cwd: dir, env: { PASSES: '2' } });
    const out = stripAnsi(worse.stdout);
    expect(worse.code, out + worse.stderr).toBe(1);
    expect(out).toContain(`regressed  demo/drops  5/5 → 2/5, ${P_TEXT}`);
    expect(out).not.toMatch(/regressed\s+demo\/steady/);
    expect(out).toMatch(/1 regression against baseline main/);
    // The JSON holds the comparison section, valid against the results schema.
    const head = ResultsSchema.parse(JSON.parse(readFileSync(join(dir, 'head.json'), 'utf8')));
    expect(head.comparison).toMatchObject({ baseline: 'main', failed: true, counted: 1 });
    expect(head.comparison!.cases[0]).toMatchObject({ key: 'demo/drops', kind: 'regressed', counted: true });
    expect(head.comparison!.cases[0]!.pValue).toBeCloseTo(P, 10);
  });

  it('--regression-alpha 0.05 reports the same drop but exits 0', async () => {
    const dir = project();
    await saveBaseline(dir);
    const r = await runCliInProcess(['run', '--baseline', 'main', '--regression-alpha', '0.05'], { cwd: dir, env: { PASSES: '2' } });
    const out = stripAnsi(r.stdout);
    expect(r.code, out + r.stderr).toBe(0);
    expect(out).toContain(`demo/drops  5/5 → 2/5, ${P_TEXT}`);
    expect(out).toMatch(/not counted: p ≥ alpha/);
  });

  it('a case whose input was edited is changed, not regressed', async () => {
    const dir = project();
    await saveBaseline(dir);
    writeFileSync(join(dir, 'evals/demo.eval.yaml'), EVAL('drops, reworded'));
    // The same 5/5 → 2/5 drop as above, but the case was edited: not comparable, so not a regression.
    const r = await runCliInProcess(['run', '--baseline', 'main'], { cwd: dir, env: { PASSES: '2' } });
    const out = stripAnsi(r.stdout);
    expect(r.code, out + r.stderr).toBe(0);
    expect(out).toMatch(/changed\s+demo\/drops\s+5\/5 → 2\/5 \(input, reference, assertions or check edited\)/);
    expect(out).toMatch(/0 regressed/);
  });

  it('a missing or invalid baseline is exit 2 naming the file, before any target runs', async () => {
    const dir = project();
    const missing = expectStoppedBeforeTargets(await runMarked(dir, ['--baseline', 'nightly'], {}, runCliInProcess));
    expect(missing).toContain(join('.agent-evals', 'baselines', 'nightly.json'));
    writeFileSync(join(dir, 'bad.json'), JSON.stringify({ schemaVersion: 1, cases: [{ suite: 'demo' }] }));
    const bad = expectStoppedBeforeTargets(await runMarked(dir, ['--baseline', 'bad.json'], {}, runCliInProcess));
    expect(bad).toMatch(/bad\.json: --baseline: not an agent-evals results file: cases\[0\]\.id/);
    const orphan = expectStoppedBeforeTargets(await runMarked(dir, ['--regression-alpha', '0.05'], {}, runCliInProcess));
    expect(orphan).toContain('--regression-alpha needs --baseline');
  });
});

describe('baselines that compare nothing, and baselines of part of the suite', () => {
  /** A results file of another suite: valid, but no case of this project's. */
  const stranger = (dir: string) =>
    writeFileSync(
      join(dir, 'stranger.json'),
      JSON.stringify({
        schemaVersion: 1,
        cases: [{ suite: 'billing', id: 'refund', verdict: 'passed', passed: 5, score: { mean: 1 }, trials: Array.from({ length: 5 }, () => ({ verdict: 'passed' })) }],
      }),
    );

  it('run --baseline with a baseline that shares no case is exit 2 naming it, before any target runs', async () => {
    const dir = project();
    stranger(dir);
    const err = expectStoppedBeforeTargets(await runMarked(dir, ['--baseline', 'stranger.json'], {}, runCliInProcess));
    expect(err).toContain('stranger.json: --baseline: shares no case with this run: the baseline holds 1 case (billing/refund), this run 2 cases (demo/drops, demo/steady)');
    // A baseline that holds one of the run's cases is compared as before.
    await saveBaseline(dir);
    const shared = await runMarked(dir, ['--baseline', 'main', '--filter', 'demo/drops'], {}, runCliInProcess);
    expect(shared.code, shared.stdout + shared.stderr).toBe(0);
    expect(shared.called).toBe(true);
  });

  it('compare with a baseline that shares no case is exit 2 naming the baseline, no stack', async () => {
    const dir = project();
    await saveBaseline(dir);
    stranger(dir);
    const r = await runCliInProcess(['compare', 'stranger.json', 'base.json'], { cwd: dir });
    expect(r.code, r.stdout + r.stderr).toBe(2);
    expect(r.stderr).toContain('stranger.json: <base>: shares no case with <head>');
    expect(r.stderr).not.toMatch(STACK_FRAME);
    expect(r.stdout).toBe('');
  });

  it('--save-baseline from a filtered, sharded or path-limited run is exit 2 before any target runs, unless --allow-partial', async () => {
    const dir = writeProject({ 'evals.config.mjs': CONFIG, 'evals/demo.eval.yaml': EVAL(), 'evals/other.eval.yaml': EVAL().replace('suite: demo', 'suite: other') });
    const main = join(dir, '.agent-evals', 'baselines', 'main.json');
    const filtered = expectStoppedBeforeTargets(await runMarked(dir, ['--save-baseline', '--filter', 'demo/*'], {}, runCliInProcess));
    expect(filtered).toContain('--save-baseline: this run covers part of the suite (--filter demo/*): the baseline "main" would hold only its 2 cases');
    expect(filtered).toContain('add --allow-partial');
    expect(existsSync(main)).toBe(false);
    expect(expectStoppedBeforeTargets(await runMarked(dir, ['--save-baseline', 'nightly', '--shard', '1/2'], {}, runCliInProcess))).toContain('(--shard 1/2)');
    expect(expectStoppedBeforeTargets(await runMarked(dir, ['evals/other.eval.yaml', '--save-baseline'], {}, runCliInProcess))).toContain('(eval paths evals/other.eval.yaml)');
    expect(expectStoppedBeforeTargets(await runMarked(dir, ['--watch', '--save-baseline'], {}, runCliInProcess))).toContain('--watch re-runs only the cases a save affects');
    expect(expectStoppedBeforeTargets(await runMarked(dir, ['--allow-partial'], {}, runCliInProcess))).toContain('--allow-partial needs --save-baseline');

    // A selection that keeps every case, or paths naming every file, is the whole suite.
    const whole = await runCliInProcess(['run', 'evals', '--save-baseline', '--filter', '*/*'], { cwd: dir });
    expect(whole.code, whole.stdout + whole.stderr).toBe(0);
    expect(ResultsSchema.parse(JSON.parse(readFileSync(main, 'utf8'))).cases).toHaveLength(4);

    const allowed = await runCliInProcess(['run', '--save-baseline', '--filter', 'demo/drops', '--allow-partial'], { cwd: dir });
    expect(allowed.code, allowed.stdout + allowed.stderr).toBe(0);
    expect(ResultsSchema.parse(JSON.parse(readFileSync(main, 'utf8'))).cases.map((c) => `${c.suite}/${c.id}`)).toEqual(['demo/drops']);
  });
});

describe('agent-evals compare', () => {
  it('exits 1 on a counted regression, 0 on an unchanged pair and under alpha, 2 on a bad file', async () => {
    const dir = project();
    await saveBaseline(dir);
    // A plain run stops a decided case early; every trial runs here so the pass rates compare.
    const head = await runCliInProcess(['run', '--no-early-stop', '--json', 'head.json'], { cwd: dir, env: { PASSES: '2' } });
    expect(head.code).toBe(0);

    // The real binary's exit code for a counted regression.
    const worse = await runCli(['compare', 'base.json', 'head.json'], { cwd: dir });
    expect(worse.code, worse.stdout + worse.stderr).toBe(1);
    expect(stripAnsi(worse.stdout)).toContain(`regressed  demo/drops  5/5 → 2/5, ${P_TEXT}`);

    const same = await runCliInProcess(['compare', 'main', 'base.json'], { cwd: dir });
    expect(same.code, same.stdout + same.stderr).toBe(0);

    const alpha = await runCliInProcess(['compare', 'base.json', 'head.json', '--regression-alpha', '0.05'], { cwd: dir });
    expect(alpha.code).toBe(0);
    expect(stripAnsi(alpha.stdout)).toContain(P_TEXT);

    const improved = await runCliInProcess(['compare', 'head.json', 'base.json'], { cwd: dir });
    expect(improved.code).toBe(0);
    expect(stripAnsi(improved.stdout)).toMatch(/improved\s+demo\/drops\s+2\/5 → 5\/5/);

    const bad = await runCliInProcess(['compare', 'base.json', 'nope.json'], { cwd: dir });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/nope\.json: <head>: no such results file/);
    // The hint follows what was given: a path is a run's results, a name a saved baseline.
    expect(bad.stderr).toContain('(a run writes it with `agent-evals run --json nope.json`)');
    const unsaved = await runCliInProcess(['compare', 'nightly', 'base.json'], { cwd: dir });
    expect(unsaved.code).toBe(2);
    expect(unsaved.stderr).toMatch(/\.agent-evals\/baselines\/nightly\.json: <base>: no such results file \(save it with `agent-evals run --save-baseline nightly`\)/);
  });

  it('a case with judge errors is listed as could not compare, never as a regression (hand-built results files)', async () => {
    const dir = writeProject({});
    const kase = (passed: number, judgeErrors?: number) => ({
      suite: 'demo',
      id: 'judged',
      verdict: passed === 5 ? 'passed' : 'failed',
      passed,
      score: { mean: passed / 5 },
      trials: Array.from({ length: 5 }, (_, i) => ({ verdict: i < passed ? 'passed' : 'failed' })),
      ...(judgeErrors !== undefined ? { judgeErrors } : {}),
    });
    writeFileSync(join(dir, 'base.json'), JSON.stringify({ schemaVersion: 1, cases: [kase(5)] }));
    writeFileSync(join(dir, 'outage.json'), JSON.stringify({ schemaVersion: 1, cases: [kase(0, 5)] }));
    writeFileSync(join(dir, 'worse.json'), JSON.stringify({ schemaVersion: 1, cases: [kase(0)] }));
    const outage = await runCliInProcess(['compare', 'base.json', 'outage.json'], { cwd: dir });
    expect(outage.code, outage.stdout + outage.stderr).toBe(0);
    expect(stripAnsi(outage.stdout)).toMatch(/could not compare: judge errors\s+demo\/judged/);
    // The same drop without judge errors is a regression: the judge errors are what kept it out.
    const worse = await runCliInProcess(['compare', 'base.json', 'worse.json'], { cwd: dir });
    expect(worse.code).toBe(1);
  });
});
