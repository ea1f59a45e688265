/**
 * `agent-evals run --last-failed [--from <results.json>]` through the built CLI (in-process): after a
 * run of 10 cases where 2 failed, only those 2 run (a counting target); a case that ended `scored` or
 * was flaky is picked too; --filter narrows the pick; with nothing failed nothing runs and exit is 0.
 * Needs dist/.
 */
import { copyFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { removeTempDirs } from '../support/cli.js';
import { runCliInProcess } from '../support/cli-in-process.js';
import { readResults } from '../support/results-helpers.js';
import { writeProject } from '../support/temp-project.js';

afterAll(removeTempDirs);

// The target appends each input to CALLS; `bad` fails the case's assertion.
const CONFIG = `import { appendFileSync } from 'node:fs';
export default {
  targets: {
    agent(input) {
      appendFileSync(process.env.CALLS, input + '\\n');
      return input.startsWith('bad') ? 'nope' : 'ok ' + input;
    },
  },
  reporters: ['terminal', 'json'],
};
`;
/** Ten cases c0..c9; those in `bad` get an input the target answers wrongly. */
const evalFile = (bad: number[]) =>
  `suite: s\ntarget: agent\ncases:\n${Array.from({ length: 10 }, (_, i) => `  - { id: c${i}, input: ${bad.includes(i) ? `bad${i}` : `in${i}`}, assert: [{ type: contains, value: ok }] }\n`).join('')}`;

function project(bad: number[]) {
  const dir = writeProject({ 'evals.config.mjs': CONFIG, 'evals/s.eval.yaml': evalFile(bad) });
  const env = { CALLS: join(dir, 'calls.txt') };
  const calls = () => (existsSync(env.CALLS) ? readFileSync(env.CALLS, 'utf8').split('\n').filter(Boolean) : []);
  return { dir, calls, cli: (args: string[]) => runCliInProcess(args, { cwd: dir, env }) };
}

describe('run --last-failed', () => {
  it('after a run with 2 failed cases of 10, runs those 2 cases only', async () => {
    const p = project([3, 7]);
    expect((await p.cli(['run'])).code).toBe(1);
    expect(p.calls()).toHaveLength(10);

    const r = await p.cli(['run', '--last-failed']);
    expect(r.code, r.stdout + r.stderr).toBe(1);
    expect(r.stderr).toContain('--last-failed: 2 cases that failed, scored or were flaky in .agent-evals/results.json');
    expect(p.calls().slice(10)).toEqual(['bad3', 'bad7']);
    const res = readResults(join(p.dir, '.agent-evals', 'results.json'));
    expect(res.cases.map((c) => [c.id, c.verdict])).toEqual([
      ['c3', 'failed'],
      ['c7', 'failed'],
    ]);
  });

  it('reads --from, intersects with --filter, and picks scored and flaky cases too', async () => {
    const p = project([3, 7]);
    expect((await p.cli(['run'])).code).toBe(1);
    copyFileSync(join(p.dir, '.agent-evals', 'results.json'), join(p.dir, 'first.json'));
    // A newer results file where nothing failed: --from still reads the named one.
    writeFileSync(join(p.dir, 'evals', 's.eval.yaml'), evalFile([]));
    expect((await p.cli(['run'])).code).toBe(0);
    const r = await p.cli(['run', '--last-failed', '--from', 'first.json', '--filter', 's/c7']);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(p.calls().slice(20)).toEqual(['in7']);

    // A scored case (a soft assertion missed) and a flaky one (a pass and a fail) are picked.
    const picked = readResults(join(p.dir, 'first.json'));
    picked.cases[1] = { ...picked.cases[1]!, verdict: 'scored' };
    picked.cases[5] = { ...picked.cases[5]!, flaky: true };
    writeFileSync(join(p.dir, 'picked.json'), JSON.stringify(picked));
    expect((await p.cli(['run', '--last-failed', '--from', 'picked.json'])).code).toBe(0);
    expect(p.calls().slice(21)).toEqual(['in1', 'in3', 'in5', 'in7']);
  });

  it('with nothing failed, runs nothing, says so and exits 0', async () => {
    const p = project([]);
    expect((await p.cli(['run'])).code).toBe(0);
    const r = await p.cli(['run', '--last-failed']);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toContain('--last-failed: nothing failed in .agent-evals/results.json: no case to run');
    expect(p.calls()).toHaveLength(10);
    // The failed cases of another selection: none is selected now, so nothing runs either.
    const q = project([3]);
    expect((await q.cli(['run'])).code).toBe(1);
    const none = await q.cli(['run', '--last-failed', '--filter', 's/c4']);
    expect(none.code, none.stdout + none.stderr).toBe(0);
    expect(none.stdout).toContain("none of the 1 case that failed in .agent-evals/results.json is in this run's selection");
    expect(q.calls()).toHaveLength(10);
  });

  it('with no results to read, is bad input (exit 2) naming the flag', async () => {
    const p = project([]);
    const r = await p.cli(['run', '--last-failed']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--last-failed: no results to read/);
    expect((await p.cli(['run', '--from', 'x.json'])).stderr).toMatch(/--from names the results that --last-failed, --estimate and --max-cost read/);
    expect(p.calls()).toEqual([]);
  });
});
