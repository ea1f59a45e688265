/**
 * A side Ctrl-C cut short holds cases that did not run: they read "not run" and are compared with
 * nothing. `compare` and `run --baseline` say so under the comparison (it passed in silence before).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { removeTempDirs, stripAnsi } from '../support/cli.js';
import { runCliInProcess } from '../support/cli-in-process.js';
import { writeProject } from '../support/temp-project.js';

afterAll(() => removeTempDirs());

const CONFIG = `export default { targets: { agent: () => 'Your order A1 has shipped.' }, judge: 'fake' };\n`;
const EVAL = `suite: support
target: agent
cases:
  - id: order-status
    input: Where is my order A1?
    assert: [{ type: contains, value: shipped }]
  - id: refund
    input: I want a refund
    assert: [{ type: contains, value: order }]
`;

/** A finished run's results, and a copy as an interrupted run leaves it: `refund` cut short before any trial. */
async function project(): Promise<string> {
  const dir = writeProject({ 'evals.config.mjs': CONFIG, 'evals/support.eval.yaml': EVAL });
  const r = await runCliInProcess(['run', '--json', 'done.json'], { cwd: dir });
  expect(r.code, r.stdout + r.stderr).toBe(0);
  const doc = JSON.parse(readFileSync(join(dir, 'done.json'), 'utf8')) as { run: { interrupted: boolean }; cases: Array<{ id: string; verdict: string; passed: number; trials: unknown[] }> };
  doc.run.interrupted = true;
  Object.assign(
    doc.cases.find((c) => c.id === 'refund')!,
    { verdict: 'skipped', passed: 0, trials: [] },
  );
  writeFileSync(join(dir, 'cut.json'), JSON.stringify(doc));
  return dir;
}

describe('a comparison with an interrupted side', () => {
  it('compare names the interrupted head (and baseline) under the table and in --json', async () => {
    const dir = await project();
    const head = await runCliInProcess(['compare', 'done.json', 'cut.json'], { cwd: dir });
    expect(stripAnsi(head.stdout)).toMatch(/could not compare: not run\s+support\/refund/);
    expect(stripAnsi(head.stdout)).toMatch(/warning head \(run [\w-]+\) was interrupted: its cases cut short read "not run" and are not compared; compare a finished run/);
    const base = await runCliInProcess(['compare', 'cut.json', 'done.json', '--json'], { cwd: dir });
    const { warnings } = JSON.parse(base.stdout) as { warnings: string[] };
    expect(warnings).toContainEqual(expect.stringMatching(/^the baseline cut\.json \(run [\w-]+\) was interrupted/));
    expect(warnings.some((w) => w.startsWith('head'))).toBe(false);
  });

  it("run --baseline <an interrupted run> says so in the run's comparison", async () => {
    const dir = await project();
    const r = await runCliInProcess(['run', '--baseline', 'cut.json', '--json', 'head.json'], { cwd: dir });
    expect(stripAnsi(r.stdout)).toMatch(/warning the baseline cut\.json \(run [\w-]+\) was interrupted/);
    const { comparison } = JSON.parse(readFileSync(join(dir, 'head.json'), 'utf8')) as { comparison: { warnings: string[] } };
    expect(comparison.warnings).toContainEqual(expect.stringMatching(/^the baseline cut\.json .* was interrupted/));
  });
});
