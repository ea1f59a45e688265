/**
 * Command targets through the built CLI: each runs in its own process group, is done when its own
 * process exits, and leaves nothing running behind the run; it sees a clean environment. The target's
 * processes are the subject: the CLI's `main` runs in the test worker and spawns them; only Ctrl-C,
 * a signal to the CLI's own process, spawns the CLI.
 */
import { execFileSync } from 'node:child_process';
import { randomInt } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { removeTempDirs, spawnCli, tempDir, type CliResult } from '../support/cli.js';
import { runCliInProcess } from '../support/cli-in-process.js';
import { whenFileExists } from '../support/process-events.js';

afterAll(removeTempDirs);

/** A project with one target and one case; the case's assertion is on the reply. */
function project(target: string, assert: string): string {
  const dir = tempDir();
  writeFileSync(join(dir, 'evals.config.mjs'), `export default { evals: ['*.eval.yaml'], outputDir: '.out', targets: { t: ${target} } };\n`);
  writeFileSync(join(dir, 'c.eval.yaml'), `suite: s\ntarget: t\ncases:\n  - id: c\n    input: hi\n    assert: [${assert}]\n`);
  return dir;
}

async function run(dir: string, env: Record<string, string | undefined> = {}): Promise<{ r: CliResult; trial: { verdict: string; reply?: string; error?: string } }> {
  const r = await runCliInProcess(['--silent', '--reporter', 'json=results.json'], { cwd: dir, env });
  const results = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')) as { cases: { trials: { verdict: string; reply?: string; error?: string }[] }[] };
  return { r, trial: results.cases[0]!.trials[0]! };
}

/**
 * Live processes whose command line is `command` (a sleep with a duration unique to this test). A
 * zombie is dead, only not yet reaped by whoever adopted it, so it does not count.
 */
function liveWith(command: string): string[] {
  const ps = execFileSync('ps', ['-eo', 'stat=,args='], { encoding: 'utf8' });
  return ps
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => !line.startsWith('Z') && line.replace(/^\S+\s+/, '') === command);
}

/**
 * Waits until no live process runs `command`, and returns what is left after 2 s. A SIGKILL is
 * acted on when the killed process is next scheduled, which on a busy machine is not at once.
 */
async function leftAfterKill(command: string): Promise<string[]> {
  for (let i = 0; i < 40; i += 1) {
    if (liveWith(command).length === 0) return [];
    await new Promise((r) => setTimeout(r, 50));
  }
  return liveWith(command);
}

/** A sleep duration no other process on the machine uses, e.g. `617.123456`. */
const unique = (whole: number) => `${whole}.${randomInt(100_000, 999_999)}`;

describe.skipIf(process.platform === 'win32')('command targets run in their own process group', () => {
  it('passes a target that answers and exits while its background helper runs; the helper is killed', async () => {
    const sleep = unique(617);
    const pids = join(tempDir(), 'pids');
    const dir = project(`{ command: ['sh', '-c', 'sleep ${sleep} & echo "$$ $!" > ${pids}; echo \\'{"reply":"done"}\\''] }`, `{ type: equals, value: done }`);
    const { r, trial } = await run(dir);
    expect(r.code, r.stderr).toBe(0);
    expect(trial).toMatchObject({ verdict: 'passed', reply: 'done' });
    // The helper did start (its pid was written), and nothing of it is left.
    expect(readFileSync(pids, 'utf8').trim()).toMatch(/^\d+ \d+$/);
    expect(await leftAfterKill(`sleep ${sleep}`)).toEqual([]);
  });

  it('times out a hanging target and kills its children with it', async () => {
    const [bg, fg] = [unique(618), unique(619)];
    const dir = project(`{ command: ['sh', '-c', 'sleep ${bg} & sleep ${fg}'], timeoutMs: 300 }`, `{ type: equals, value: done }`);
    const { r, trial } = await run(dir);
    expect(r.code).toBe(1);
    expect(trial.verdict).toBe('failed');
    expect(trial.error).toContain("timed out after 300 ms (the target's timeoutMs)");
    expect(await leftAfterKill(`sleep ${bg}`)).toEqual([]);
    expect(await leftAfterKill(`sleep ${fg}`)).toEqual([]);
  });

  it('kills a timed-out group that ignores SIGTERM', async () => {
    const sleep = unique(620);
    // Ignored signals are inherited: neither sh nor its sleeps end on SIGTERM, only SIGKILL ends them.
    const dir = project(`{ command: ['sh', '-c', 'trap "" TERM; sleep ${sleep} & sleep ${sleep}'], timeoutMs: 300 }`, `{ type: equals, value: done }`);
    const { r, trial } = await run(dir);
    expect(r.code).toBe(1);
    expect(trial.error).toContain('timed out after 300 ms');
    expect(await leftAfterKill(`sleep ${sleep}`)).toEqual([]);
  });

  /** The CLI running a target whose two sleeps both run (they show in the process list) until killed. */
  async function startHanging(sleep: string) {
    const started = join(tempDir(), 'started');
    // The target creates `started` once both sleeps are forked: the test waits for that, not on a clock.
    const dir = project(`{ command: ['sh', '-c', 'sleep ${sleep} & sleep ${sleep} & : > ${started}; wait'] }`, `{ type: equals, value: done }`);
    const cli = spawnCli(['--silent'], { cwd: dir, timeoutMs: 60_000 });
    await whenFileExists(started, cli.done);
    // A forked child execs `sleep` at its next turn on a core: until then the list shows it as `sh`.
    while (liveWith(`sleep ${sleep}`).length < 2) await pause(20);
    return cli;
  }
  const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

  it('kills the running groups on Ctrl-C', async () => {
    const sleep = unique(621);
    const cli = await startHanging(sleep);
    cli.child.kill('SIGINT');
    const r = await cli.done;
    expect(r.code, r.stderr).toBe(130);
    expect(await leftAfterKill(`sleep ${sleep}`)).toEqual([]);
  });

  it('kills the running groups when a second Ctrl-C quits at once', async () => {
    const sleep = unique(622);
    const cli = await startHanging(sleep);
    cli.child.kill('SIGINT');
    await cli.waitForStderr(/Interrupted/, 60_000);
    // The first Ctrl-C's grace has not passed: nothing was aborted yet, the exit itself must kill.
    cli.child.kill('SIGINT');
    const r = await cli.done;
    expect(r.code, r.stderr).toBe(130);
    expect(await leftAfterKill(`sleep ${sleep}`)).toEqual([]);
  });

  it('reads all the output a target wrote before it exited, and ends the trial at that exit though another process still holds stdout', async () => {
    const sleep = unique(623);
    const dir = project(`{ command: ['node', 'agent.cjs'], timeoutMs: 30_000 }`, `{ type: endsWith, value: 'y!' }`);
    const helperPid = join(dir, 'helper.pid');
    // The helper leads a group of its own (detached), so killing the target's group leaves it running,
    // holding the target's stdout: the pipe does not end until the test kills it. A runner that waits
    // for the pipes to close never ends the trial (the target's timeoutMs, a hang guard, then fails it).
    // The reply, far more than a pipe holds (64 KiB), cannot all be written unless the runner reads while
    // the target runs: a runner that reads only once the target exited leaves it blocked in its write.
    // What is still in the pipe when the target exits, Node reads before it reports the exit (libuv
    // runs its signal watchers, which report child exits, after a loop turn's pipe reads), so on Unix
    // no test can see a runner that stops reading at exit lose it; the runner's short read after the
    // exit is for where Node does not keep that order.
    writeFileSync(
      join(dir, 'agent.cjs'),
      [
        `const helper = require('node:child_process').spawn('sleep', ['${sleep}'], { detached: true, stdio: ['ignore', 'inherit', 'inherit'] });`,
        `require('node:fs').writeFileSync(${JSON.stringify(helperPid)}, String(helper.pid));`,
        `helper.unref();`,
        `process.stdout.write(JSON.stringify({ reply: 'y'.repeat(4_000_000) + '!' }));`,
      ].join('\n'),
    );
    try {
      const { r, trial } = await run(dir);
      expect(trial.error).toBeUndefined();
      expect(r.code, r.stderr).toBe(0);
      expect(trial.verdict).toBe('passed');
      // The helper was still running when the trial ended: the trial did end at the target's own exit.
      expect(liveWith(`sleep ${sleep}`)).toHaveLength(1);
    } finally {
      if (existsSync(helperPid)) process.kill(Number(readFileSync(helperPid, 'utf8')), 'SIGKILL');
    }
    expect(await leftAfterKill(`sleep ${sleep}`)).toEqual([]);
  });

  it('fails a target whose stdout passes maxOutputBytes with a size error', async () => {
    const dir = project(`{ command: ['node', '-e', 'process.stdout.write("x".repeat(5000) + JSON.stringify({ reply: "done" }))'], maxOutputBytes: 4096 }`, `{ type: equals, value: done }`);
    const { r, trial } = await run(dir);
    expect(r.code).toBe(1);
    expect(trial.error).toBe('target t: command target "t" wrote more than 4096 bytes to stdout (the limit set by its maxOutputBytes); the target was stopped');
  });
});

describe('command targets get a clean environment', () => {
  const printEnv = (names: string[]) => `['node', '-e', 'process.stdout.write(JSON.stringify({ reply: JSON.stringify([${names.map((n) => `process.env.${n} ?? null`).join(', ')}]) }))']`;
  const KEY = 'sk-parent-secret-0123456789';

  it('does not pass the runner’s provider keys, only the default variables', async () => {
    const dir = project(`{ command: ${printEnv(['OPENAI_API_KEY', 'ANTHROPIC_API_KEY', 'HOME'])} }`, `{ type: isJson }`);
    const { r, trial } = await run(dir, { OPENAI_API_KEY: KEY, ANTHROPIC_API_KEY: KEY, HOME: '/home/evals-test' });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(trial.reply!)).toEqual([null, null, '/home/evals-test']);
  });

  it('passes what inheritEnv names and what env sets', async () => {
    const dir = project(`{ command: ${printEnv(['OPENAI_API_KEY', 'HOME', 'EXTRA'])}, inheritEnv: ['PATH', 'OPENAI_API_KEY'], env: { EXTRA: 'x' } }`, `{ type: isJson }`);
    const { r, trial } = await run(dir, { OPENAI_API_KEY: KEY, HOME: '/home/evals-test' });
    expect(r.code, r.stderr).toBe(0);
    // inheritEnv replaces the default list: HOME is not in it. The key reached the target; every
    // output shows a secret's value redacted.
    expect(JSON.parse(trial.reply!)).toEqual(['[redacted]', null, 'x']);
    expect(JSON.stringify(trial)).not.toContain(KEY);
  });

  it('rejects a bad inheritEnv name or maxOutputBytes before any target runs', async () => {
    const dir = project(`{ command: ['node', 'no-such-agent.js'], inheritEnv: ['PATH', 'BAD NAME'], maxOutputBytes: 0 }`, `{ type: isJson }`);
    const r = await runCliInProcess(['--silent'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('evals.config.mjs: targets.t: expected { command: string[]');
    expect(r.stderr).toContain('inheritEnv[1]: an environment variable name is letters, digits and "_"');
    expect(r.stderr).toContain('maxOutputBytes: expected a whole number from 1 to 1,000,000,000');
  });
});
