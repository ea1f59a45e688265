/**
 * A passAt case against a baseline through the built CLI (`run --save-baseline`, `run --baseline`,
 * `compare`): it compares on its pass@3 estimate, not on its raw pass rate. The function target passes
 * the first PASSES of the case's 10 trials, so every pass count, and so every estimate, is known.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { removeTempDirs, stripAnsi } from '../support/cli.js';
import { runCliInProcess } from '../support/cli-in-process.js';
import { writeProject } from '../support/temp-project.js';
import { ResultsSchema } from '../../src/core/results-schema.js';

afterAll(removeTempDirs);

const CONFIG = `export default {
  targets: { scripted: (input, ctx) => (ctx.trial.trial < Number(process.env.PASSES) ? 'pass' : 'fail') },
  concurrency: 1,
};
`;
const EVAL = `suite: demo
target: scripted
repeat: 10
passAt: 3
cases:
  - id: tries
    input: tries
    assert: [{ type: equals, value: pass }]
`;

async function run(dir: string, passes: number, args: string[]) {
  const r = await runCliInProcess(['run', ...args], { cwd: dir, env: { PASSES: String(passes) } });
  return { ...r, out: stripAnsi(r.stdout) };
}

describe('a pass@k case against a baseline', () => {
  it('pass@3 0.917 → 0.533 (5/10 → 2/10, both passing min 0.5) is a regression on the estimate: run --baseline and compare exit 1', async () => {
    const dir = writeProject({ 'evals.config.mjs': CONFIG, 'evals/demo.eval.yaml': EVAL });
    expect((await run(dir, 5, ['--save-baseline', '--json', 'base.json'])).code).toBe(0);

    const head = await run(dir, 2, ['--baseline', 'main', '--json', 'head.json']);
    // The case itself still passes (pass@3 0.533 ≥ 0.5): only the comparison fails the run.
    expect(head.out).toMatch(/2\/10 \(needed 2\)\s+demo\/tries.*pass@3 0\.533 \(min 0\.5\)/);
    expect(head.code, head.out + head.stderr).toBe(1);
    // The reason is the estimate; the raw pass rate's drop (0.5 → 0.2) is not what is judged.
    expect(head.out).toMatch(/regressed {2}demo\/tries {2}5\/10 → 2\/10, p = [0-9.]+ \(pass@3 0\.917 → 0\.533\)/);
    expect(head.out).not.toContain('score 0.50 → 0.20');
    const saved = ResultsSchema.parse(JSON.parse(readFileSync(join(dir, 'head.json'), 'utf8')));
    expect(saved.comparison!.cases[0]).toMatchObject({ key: 'demo/tries', kind: 'regressed', counted: true, reason: 'pass@3 0.917 → 0.533' });

    const compared = await runCliInProcess(['compare', 'base.json', 'head.json'], { cwd: dir });
    expect(compared.code, compared.stdout + compared.stderr).toBe(1);
    expect(stripAnsi(compared.stdout)).toContain('(pass@3 0.917 → 0.533)');
  });

  it('10/10 → 8/10 is pass@3 1.000 → 1.000: the raw pass rate fell but the estimate held, so no regression (exit 0)', async () => {
    const dir = writeProject({ 'evals.config.mjs': CONFIG, 'evals/demo.eval.yaml': EVAL });
    expect((await run(dir, 10, ['--save-baseline', '--json', 'base.json'])).code).toBe(0);

    // A mean-score drop of 0.2 is four times the default epsilon (0.05): a passRate case would regress.
    const head = await run(dir, 8, ['--baseline', 'main', '--json', 'head.json']);
    expect(head.code, head.out + head.stderr).toBe(0);
    expect(head.out).toMatch(/0 regressed .* 1 unchanged/);

    const compared = await runCliInProcess(['compare', 'base.json', 'head.json'], { cwd: dir });
    expect(compared.code, compared.stdout + compared.stderr).toBe(0);
    const saved = ResultsSchema.parse(JSON.parse(readFileSync(join(dir, 'head.json'), 'utf8')));
    expect(saved.cases[0]).toMatchObject({ passed: 8, reducer: { estimate: 1 } });
    expect(saved.comparison).toMatchObject({ failed: false, counted: 0, counts: { unchanged: 1, regressed: 0 } });
  });
});
