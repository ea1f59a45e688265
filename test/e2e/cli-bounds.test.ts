/**
 * Bounds a typo cannot break: every numeric flag and config/eval field has a range (src/core/bounds.ts)
 * checked at load, and a run whose plan passes the trial cap (`maxTrials`, default 1,000,000) is refused
 * from its cases' counts before a trial is scheduled. Each is exit 2 naming the flag or field and the
 * limit, with the counting target never called. The CLI's `main` runs in-process (needs dist/).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readCountFile, removeTempDirs, STACK_FRAME, tempDir, type CliResult } from '../support/cli.js';
import { runCliInProcess } from '../support/cli-in-process.js';

afterAll(() => removeTempDirs());

/** A command agent that records each call in COUNT_FILE. */
const AGENT = `import { appendFileSync } from 'node:fs';
let input = '';
process.stdin.on('data', (d) => (input += d)).on('end', () => {
  const trial = JSON.parse(input);
  appendFileSync(process.env.COUNT_FILE, trial.suite + '/' + trial.id + '\\n');
  process.stdout.write(JSON.stringify({ reply: 'shipped' }));
});
`;

const caseYaml = (id: string, extra = '') => `  - id: ${id}\n    input: Where is order A1?\n${extra}    assert:\n      - type: contains\n        value: shipped\n`;

function project(configExtra: string, evalYaml: string) {
  const dir = tempDir();
  const countFile = join(dir, 'calls.txt');
  writeFileSync(join(dir, 'agent.mjs'), AGENT);
  writeFileSync(
    join(dir, 'evals.config.mjs'),
    `export default { evals: ['*.eval.yaml'], outputDir: '.out', reporters: [], targets: { cli: { command: ['node', 'agent.mjs'], inheritEnv: ['PATH', 'COUNT_FILE'] }, other: { command: ['node', 'agent.mjs'], inheritEnv: ['PATH', 'COUNT_FILE'] } }, ${configExtra} };\n`,
  );
  writeFileSync(join(dir, 'orders.eval.yaml'), evalYaml);
  return {
    run: (args: string[]) => runCliInProcess(args, { cwd: dir, env: { COUNT_FILE: countFile } }),
    calls: () => readCountFile(countFile),
  };
}

/** Exit 2, a plain message, no stack trace, the target never called. */
function expectRefused(r: CliResult, calls: string[]): string {
  expect(r.code, r.stdout + r.stderr).toBe(2);
  expect(r.stderr).not.toMatch(STACK_FRAME);
  expect(r.stderr).not.toContain('internal error');
  expect(calls, 'a target ran despite the bad input').toEqual([]);
  return r.stderr;
}

const oneCase = `suite: orders\ntarget: cli\ncases:\n${caseYaml('a1')}`;

describe('numeric flags and fields are checked against their documented range at load', () => {
  it('--timeout 3000000000 (past the longest timer Node keeps) is exit 2 naming the flag and the limit', async () => {
    const p = project('', oneCase);
    const stderr = expectRefused(await p.run(['run', '--timeout', '3000000000']), p.calls());
    expect(stderr).toContain("option '--timeout <ms>' argument '3000000000' is invalid");
    expect(stderr).toContain('expected a whole number from 1 to 2,147,483,647');
    // The same flag in range runs the case.
    const ok = await p.run(['run', '--timeout', '2147483647']);
    expect(ok.code, ok.stdout + ok.stderr).toBe(0);
    expect(p.calls()).toEqual(['orders/a1']);
  });

  it('--repeat 1000000000 is exit 2 naming the flag and the per-case limit, before the config or any file loads', async () => {
    const p = project('', oneCase);
    const stderr = expectRefused(await p.run(['run', '--repeat', '1000000000']), p.calls());
    expect(stderr).toContain("option '-r, --repeat <n>' argument '1000000000' is invalid");
    expect(stderr).toContain('expected a whole number from 1 to 10,000');
  });

  it('timeoutMs above the limit in the config names the config file and the field', async () => {
    const p = project('timeoutMs: 3000000000', oneCase);
    const stderr = expectRefused(await p.run(['run']), p.calls());
    expect(stderr).toContain('evals.config.mjs');
    expect(stderr).toContain('timeoutMs');
    expect(stderr).toContain('2,147,483,647');
  });

  it('timeoutMs above the limit on a case names the eval file, its line and the field', async () => {
    const p = project('', `suite: orders\ntarget: cli\ncases:\n${caseYaml('a1')}${caseYaml('a2', '    timeoutMs: 3000000000\n')}`);
    const stderr = expectRefused(await p.run(['run']), p.calls());
    expect(stderr).toMatch(/orders\.eval\.yaml:\d+/);
    expect(stderr).toContain('timeoutMs');
    expect(stderr).toContain('2,147,483,647');
  });

  it('a target timeout above the limit names the target field', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'evals.config.mjs'), `export default { evals: ['*.eval.yaml'], targets: { cli: { command: ['node', 'a.mjs'], timeoutMs: 3000000000 } } };\n`);
    writeFileSync(join(dir, 'orders.eval.yaml'), oneCase);
    const r = await runCliInProcess(['run'], { cwd: dir });
    expect(r.code, r.stdout + r.stderr).toBe(2);
    expect(r.stderr).toContain('evals.config.mjs: targets.cli:');
    expect(r.stderr).toContain('timeoutMs: expected a whole number from 1 to 2,147,483,647');
    expect(r.stderr).toContain('2,147,483,647');
  });
});

describe('a run whose plan passes the trial cap is exit 2 before any trial is scheduled', () => {
  it('the default cap (1,000,000): 101 cases × --repeat 10000 names the computed count and the cap', async () => {
    const p = project('', `suite: orders\ntarget: cli\ncases:\n${Array.from({ length: 101 }, (_, i) => caseYaml(`c${i}`)).join('')}`);
    const stderr = expectRefused(await p.run(['run', '--repeat', '10000']), p.calls());
    expect(stderr).toContain('this run plans 1,010,000 trials (101 cases with their repeats), above the cap of 1,000,000 trials per run');
    expect(stderr).toContain('maxTrials');
  });

  it('a configured maxTrials is the cap, and each matrix value counts', async () => {
    const p = project('maxTrials: 3', `suite: orders\nmatrix:\n  target: [cli, other]\nrepeat: 2\ncases:\n${caseYaml('a1')}`);
    const stderr = expectRefused(await p.run(['run']), p.calls());
    expect(stderr).toContain('evals.config.mjs: maxTrials: this run plans 4 trials (2 cases with their repeats), above the cap of 3 trials per run');
    // Two targets × one trial is under the cap: the run goes ahead.
    const ok = await p.run(['run', '--repeat', '1']);
    expect(ok.code, ok.stdout + ok.stderr).toBe(0);
    expect(p.calls()).toHaveLength(2);
  });
});
