/**
 * Every `run` leaves its results document (`<outputDir>/results.json`) and run folder, though no
 * reporter and no `--json` asked for them: a plain run can then be followed by `--last-failed` or,
 * when Ctrl-C cut it, by `--resume`. The file is written quietly (no `wrote` line); `results: false`
 * in the config or `--no-results` leaves nothing; the results of a resumed, retried or last-failed
 * run say where their kept trials or chosen cases came from. Needs dist/ (`npm run build`).
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { removeTempDirs } from '../support/cli.js';
import { runCliInProcess, startCliInProcess } from '../support/cli-in-process.js';
import { readResults } from '../support/results-helpers.js';
import { writeProject } from '../support/temp-project.js';

afterAll(removeTempDirs);

// No `reporters`, no outputDir: the defaults a user who did not think ahead runs with. The target
// appends each input to CALLS and tells an in-process test of each call (to send Ctrl-C at one).
const CONFIG = (extra = '') => `import { appendFileSync } from 'node:fs';
let calls = 0;
export default {
  targets: {
    async agent(input) {
      appendFileSync(process.env.CALLS, input + '\\n');
      calls += 1;
      globalThis.__defaultResultsCall?.(calls);
      return input.startsWith('bad') ? 'nope' : 'ok ' + input;
    },
  },
  concurrency: 1,
  ${extra}
};
`;
// Ten cases, two of which fail.
const EVALS = `suite: s
target: agent
cases:
${Array.from({ length: 10 }, (_, i) => `  - { id: c${i}, input: ${i === 3 || i === 7 ? 'bad' : 'fine'}${i}, assert: [{ type: contains, value: ok }] }`).join('\n')}
`;

declare global {
  var __defaultResultsCall: ((n: number) => void) | undefined;
}
afterEach(() => {
  globalThis.__defaultResultsCall = undefined;
});

function project(extra = '') {
  const dir = writeProject({ 'evals.config.mjs': CONFIG(extra), 'evals/s.eval.yaml': EVALS });
  const env = { CALLS: join(dir, 'calls.txt') };
  const calls = () => (existsSync(env.CALLS) ? readFileSync(env.CALLS, 'utf8').split('\n').filter(Boolean) : []);
  const cli = (args: string[]) => runCliInProcess(args, { cwd: dir, env });
  const out = join(dir, '.agent-evals');
  return { dir, env, calls, cli, out, results: () => readResults(join(out, 'results.json')) };
}

describe('a plain run leaves its results and run folder', () => {
  it('quietly: results.json and the run folder exist, and no `wrote` line is printed', async () => {
    const p = project();
    const r = await p.cli(['run']);
    expect(r.code, r.stdout + r.stderr).toBe(1);
    expect(r.stdout).not.toContain('wrote');
    const results = p.results();
    const firstText = readFileSync(join(p.out, 'results.json'), 'utf8');
    expect(results.cases).toHaveLength(10);
    expect(readdirSync(join(p.out, 'runs', results.run.id)).sort()).toEqual(expect.arrayContaining(['cases.jsonl', 'plan.json', 'results.json']));
    // A file the user asked for is still named.
    const asked = await p.cli(['run', '--json', 'mine.json']);
    expect(asked.stdout).toContain('wrote mine.json');
    // A saved baseline is named; the results document beside it is not.
    const saved = await p.cli(['run', '--save-baseline']);
    expect(saved.stdout.split('\n').filter((l) => l.startsWith('wrote '))).toEqual([`wrote ${join('.agent-evals', 'baselines', 'main.json')}`]);
    expect(p.results().run.id).not.toBe(results.run.id);
    // Each run folder keeps its own results document: the first run's is still there, whole.
    expect(readFileSync(join(p.out, 'runs', results.run.id, 'results.json'), 'utf8')).toBe(firstText);
  });

  it('then --last-failed runs the 2 failed cases of 10, and its results name the file they came from', async () => {
    const p = project();
    expect((await p.cli(['run'])).code).toBe(1);
    expect(p.calls()).toHaveLength(10);
    const again = await p.cli(['run', '--last-failed']);
    expect(again.code, again.stdout + again.stderr).toBe(1);
    expect(p.calls().slice(10)).toEqual(['bad3', 'bad7']);
    const results = p.results();
    expect(results.cases.map((c) => c.id)).toEqual(['c3', 'c7']);
    expect(results.run.lastFailedFrom).toBe(join('.agent-evals', 'results.json'));
    expect(results.run.resumedFrom).toBeUndefined();
    // The terminal's header says so too.
    expect(again.stdout.split('\n')[0]).toContain(`last failed in ${join('.agent-evals', 'results.json')}`);
  });

  it('cut by Ctrl-C, then --resume finishes it: only the missing cases run, and the results name the run resumed', async () => {
    const p = project();
    const cut = startCliInProcess(['run', '--no-early-stop'], { cwd: p.dir, env: p.env });
    globalThis.__defaultResultsCall = (n) => {
      if (n === 5) expect(cut.kill('SIGINT')).toBe(true);
    };
    const r = await cut.done;
    globalThis.__defaultResultsCall = undefined;
    expect(r.code, r.stdout + r.stderr).toBe(130);
    const first = p.results();
    expect(first.run.interrupted).toBe(true);
    expect(p.calls()).toHaveLength(5);

    const resumed = await p.cli(['run', '--resume', '--no-early-stop']);
    expect(resumed.code, resumed.stdout + resumed.stderr).toBe(1);
    expect(resumed.stderr).toContain(`resuming run ${first.run.id}: 5 trials kept, up to 5 to run`);
    expect(p.calls().slice(5)).toEqual(['fine5', 'fine6', 'bad7', 'fine8', 'fine9']);
    const whole = p.results();
    expect(whole.run.interrupted).toBe(false);
    expect(whole.run.resumedFrom).toBe(first.run.id);
    expect(whole.summary.cases).toMatchObject({ total: 10, passed: 8, failed: 2 });
    expect(resumed.stdout.split('\n')[0]).toContain(`resumed from run ${first.run.id}`);
  });

  it('--retry-errors records the results file it retried, relative to the working directory', async () => {
    const p = project();
    expect((await p.cli(['run'])).code).toBe(1);
    const retried = await p.cli(['run', '--retry-errors', join('.agent-evals', 'results.json')]);
    expect(retried.code, retried.stdout + retried.stderr).toBe(1);
    expect(p.results().run.retriedFrom).toBe(join('.agent-evals', 'results.json'));
    expect(retried.stdout.split('\n')[0]).toContain(`errors retried from ${join('.agent-evals', 'results.json')}`);
  });
});

describe('opting out', () => {
  it('`results: false` in the config writes no results document and no run folder; --last-failed then has nothing to read', async () => {
    const p = project('results: false,');
    const r = await p.cli(['run']);
    expect(r.code, r.stdout + r.stderr).toBe(1);
    expect(existsSync(p.out)).toBe(false);
    const last = await p.cli(['run', '--last-failed']);
    expect(last.code).toBe(2);
    expect(last.stderr).toContain('--last-failed: no results to read');
  });

  it('--no-results writes nothing either; with --json it is exit 2 (they contradict)', async () => {
    const p = project();
    expect((await p.cli(['run', '--no-results'])).code).toBe(1);
    expect(existsSync(p.out)).toBe(false);
    const both = await p.cli(['run', '--no-results', '--json', 'r.json']);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('--no-results: --no-results and --json contradict each other');
    expect(p.calls()).toHaveLength(10);
  });

  it('a dry run leaves no results: its placeholder replies are no record of the agent', async () => {
    const p = project();
    expect((await p.cli(['run', '--dry-run'])).code).toBe(1);
    expect(existsSync(join(p.out, 'results.json'))).toBe(false);
  });

  it('an outputDir that cannot be written skips the document with a note; the run goes on', async () => {
    const p = project(`outputDir: 'blocked/out',`);
    writeFileSync(join(p.dir, 'blocked'), 'a file, not a folder');
    const r = await p.cli(['run']);
    expect(r.code, r.stdout + r.stderr).toBe(1);
    expect(r.stderr).toMatch(/no results document this run \(--resume and --last-failed will not see it\): .*outputDir: cannot write .*blocked/);
    expect(p.calls()).toHaveLength(10);
  });
});
