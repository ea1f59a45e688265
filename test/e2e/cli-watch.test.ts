/**
 * `run --watch` through the built CLI's `main` in-process, with a real file watcher: a normal first
 * run, then a save of one eval file re-runs only that file's cases; a broken save prints the located
 * error and keeps watching; SIGINT (delivered to the listeners the CLI added) ends it with the last
 * run's exit code (the whole suite's when its files describe it). Waits are on output, never on
 * elapsed time. Keys read from a terminal need a real process on a pseudo-terminal: that test spawns.
 */
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { CLI, removeTempDirs, STACK_FRAME, stripAnsi } from '../support/cli.js';
import { runCliInProcess, startCliInProcess as startInProcess, type InProcessCli } from '../support/cli-in-process.js';
import { writeProject } from '../support/temp-project.js';
import { caseOf, readResults } from '../support/results-helpers.js';

afterAll(removeTempDirs);

// A watch left running by a failed assertion would hold the worker's in-process CLI: end it.
let watching: InProcessCli | undefined;
afterEach(async () => {
  watching?.kill('SIGINT');
  await watching?.done.catch(() => {});
  watching = undefined;
});
const startCliInProcess = (args: string[], opts: { cwd: string }) => (watching = startInProcess(args, opts));

const CONFIG = `export default { targets: { echo: (input) => 'echo ' + input } };\n`;
const A = `suite: a
target: echo
cases:
  - id: a1
    input: one
    assert: [{ type: contains, value: one }]
  - id: a2
    input: two
    assert: [{ type: contains, value: two }]
`;
const B = (value: string) => `suite: b
target: echo
cases:
  - id: b1
    input: three
    assert: [{ type: contains, value: ${value} }]
`;

/** The case lines of the n-th terminal report (1-based) in stdout. */
function reportCases(stdout: string, n: number): string[] {
  const report = stdout.split(/^agent-evals · /m)[n] ?? '';
  return [...report.matchAll(/^[✓✗~!] .*? {2}(\S+\/\S+) /gm)].map((m) => m[1]!);
}

describe('run --watch', () => {
  it('refuses --shard (a shard is part of a whole plan, a watch re-runs what changed): exit 2 before any run', async () => {
    const dir = writeProject({ 'evals.config.mjs': CONFIG, 'evals/a.eval.yaml': A });
    const r = await runCliInProcess(['run', '--watch', '--shard', '1/2'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--watch and --shard do not go together');
    expect(r.stdout).not.toMatch(/^Cases/m);
  });

  it('re-runs only the cases of the saved eval file, survives a broken save, and ends on SIGINT with the last exit code', async () => {
    const dir = writeProject({ 'evals.config.mjs': CONFIG, 'evals/a.eval.yaml': A, 'evals/b.eval.yaml': B('three') });
    const cli = startCliInProcess(['run', '--watch'], { cwd: dir });
    await cli.waitForStderr(/Watching for changes/);
    // The terminal prints cases as they finish: the order is the machine's, the set is the test's.
    expect(reportCases(cli.stdout(), 1).sort()).toEqual(['a/a1', 'a/a2', 'b/b1']);

    // The second report is of b alone, and b now fails.
    // Saved as many editors do: a new file renamed over the old one (later saves must still be seen).
    writeFileSync(join(dir, 'evals/b.eval.yaml.tmp'), B('nope'));
    renameSync(join(dir, 'evals/b.eval.yaml.tmp'), join(dir, 'evals/b.eval.yaml'));
    await cli.waitForStdout(/(?:^Cases .*\n[\s\S]*){2}/m);
    expect(cli.stderr()).toContain('Changed: evals/b.eval.yaml; re-running 1 of 3 cases');
    expect(reportCases(cli.stdout(), 2)).toEqual(['b/b1']);
    expect(cli.stdout()).toMatch(/^Cases +1 failed \(1\)/m);

    // A half-written file is a located error, and the watch goes on.
    writeFileSync(join(dir, 'evals/b.eval.yaml'), 'suite: b\ntarget: echo\ncases:\n  - id: b1\n    input: [bad\n');
    await cli.waitForStderr(/agent-evals: evals\/b\.eval\.yaml:\d+: YAML syntax error/);
    await cli.waitForStderr(/YAML syntax error[^\n]*\n\nWatching for changes/);

    expect(cli.kill('SIGINT')).toBe(true);
    const r = await cli.done;
    expect(r.signal, r.stderr).toBeNull();
    // The last run was the load error: bad input, exit 2.
    expect(r.code, r.stdout + r.stderr).toBe(2);
    expect(r.stderr).not.toMatch(STACK_FRAME);
    // No third report: the broken file ran nothing.
    expect(r.stdout.split(/^agent-evals · /m)).toHaveLength(3);
  });

  it('the results file and JUnit keep the whole suite after a re-run: the re-run case new, the others carried, run.watch naming what re-ran', async () => {
    const dir = writeProject({ 'evals.config.mjs': CONFIG, 'evals/a.eval.yaml': A, 'evals/b.eval.yaml': B('three') });
    const cli = startCliInProcess(['run', '--watch', '--json', 'results.json', '--reporter', 'terminal', '--reporter', 'junit=junit.xml'], { cwd: dir });
    await cli.waitForStderr(/Watching for changes/);
    const first = readResults(join(dir, 'results.json'));
    expect(first.run.watch).toBeUndefined();
    expect(first.summary.cases).toMatchObject({ total: 3, passed: 3 });

    writeFileSync(join(dir, 'evals/b.eval.yaml'), B('nope'));
    await cli.waitForStderr(/Watching for changes[\s\S]*re-running 1 of 3 cases[\s\S]*Watching for changes/);
    // The terminal shows the run's own case; the files, the whole suite.
    expect(reportCases(cli.stdout(), 2)).toEqual(['b/b1']);
    const second = readResults(join(dir, 'results.json'));
    expect(second.cases.map((c) => `${c.suite}/${c.id}`)).toEqual(['a/a1', 'a/a2', 'b/b1']);
    expect(caseOf(second, 'b/b1').verdict).toBe('failed');
    // Carried as the first run wrote them, not run again.
    expect(caseOf(second, 'a/a1')).toEqual(caseOf(first, 'a/a1'));
    expect(second.run.watch).toEqual({ rerun: ['b/b1'], carried: 2 });
    expect(second.run.id).not.toBe(first.run.id);
    expect(second.summary.cases).toMatchObject({ total: 3, passed: 2, failed: 1 });
    expect(second.summary.trials).toMatchObject({ planned: 3, run: 3, passed: 2 });
    const junit = readFileSync(join(dir, 'junit.xml'), 'utf8');
    expect(junit.match(/<testcase /g)).toHaveLength(3);
    expect(junit.match(/<failure /g)).toHaveLength(1);

    expect(cli.kill('SIGINT')).toBe(true);
    const r = await cli.done;
    expect(r.code, r.stdout + r.stderr).toBe(1);
  });

  it("exits with the whole suite's code: a case that failed earlier and did not re-run still fails the watch", async () => {
    const dir = writeProject({ 'evals.config.mjs': CONFIG, 'evals/a.eval.yaml': A, 'evals/b.eval.yaml': B('nope') });
    const cli = startCliInProcess(['run', '--watch', '--json', 'results.json', '--reporter', 'terminal'], { cwd: dir });
    await cli.waitForStderr(/Watching for changes/);
    // Only a's cases re-run, and they pass; b's failure is carried.
    writeFileSync(join(dir, 'evals/a.eval.yaml'), A);
    await cli.waitForStderr(/Watching for changes[\s\S]*re-running 2 of 3 cases[\s\S]*Watching for changes/);
    expect(readResults(join(dir, 'results.json')).summary.cases).toMatchObject({ total: 3, passed: 2, failed: 1 });
    expect(cli.kill('SIGINT')).toBe(true);
    const r = await cli.done;
    expect(r.code, r.stdout + r.stderr).toBe(1);
  });

  // Keys are read only from a terminal: util-linux `script` gives the CLI a pseudo-terminal.
  const hasScript = spawnSync('script', ['--version']).status === 0;
  it.skipIf(!hasScript)(
    'on a terminal, a re-runs every case and q quits with the last exit code (skipped without `script`)',
    async () => {
      // b fails, so exit code 1 is the last run's, not a default.
      const dir = writeProject({ 'evals.config.mjs': CONFIG, 'evals/a.eval.yaml': A, 'evals/b.eval.yaml': B('nope') });
      const child = spawn('script', ['-qfec', `"${process.execPath}" "${CLI}" run --watch`, '/dev/null'], { cwd: dir, env: { ...process.env, NO_COLOR: '1', CI: undefined, NODE_OPTIONS: undefined } });
      let out = '';
      const waiters = new Set<() => void>();
      child.stdout.setEncoding('utf8').on('data', (d: string) => {
        out += d;
        for (const w of waiters) w();
      });
      const closed = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
      const waitFor = (count: number) =>
        new Promise<void>((resolve) => {
          const check = () => {
            if ((stripAnsi(out).match(/press a to re-run all, q to quit/g) ?? []).length >= count) {
              waiters.delete(check);
              resolve();
            }
          };
          waiters.add(check);
          check();
        });
      try {
        await waitFor(1);
        child.stdin.write('a');
        await waitFor(2);
        child.stdin.write('q');
        expect(await closed, out).toBe(1);
        const reports = stripAnsi(out).split(/^agent-evals · /m);
        expect(reports).toHaveLength(3);
        expect(reports[2]).toMatch(/a\/a1[\s\S]*a\/a2[\s\S]*b\/b1/);
      } finally {
        child.kill('SIGKILL');
      }
    },
    90_000,
  );
});
