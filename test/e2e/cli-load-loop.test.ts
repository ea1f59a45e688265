/**
 * A config or eval module whose import never returns is stopped by the load timeout, naming the
 * file and the limit, before any target runs. One that waits (a top-level await that never
 * settles) is exit 2 through the CLI's own timer; one that blocks the thread (a loop that never
 * ends) cannot answer a timer, so the watchdog thread (src/suite/load-watchdog.ts) writes the same
 * message and kills the process (SIGKILL). A loop is loaded by the spawned CLI (it would block the
 * test worker, and the kill is the subject); a waiting module by the CLI's `main` in-process, which
 * stays pending unless the timer ends the load. The stuck modules never finish, so the outcome does
 * not depend on the machine's speed (the limits leave a busy machine room to load the modules that
 * do finish).
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO_ROOT, removeTempDirs, runCli, STACK_FRAME } from '../support/cli.js';
import { runCliInProcess } from '../support/cli-in-process.js';
import { expectStoppedBeforeTargets, runMarked, writeProject, type MarkedRun } from '../support/temp-project.js';

afterAll(removeTempDirs);

const spawned = (dir: string, args: string[]) => runMarked(dir, args, {}, runCli);
const inProcess = (dir: string, args: string[]) => runMarked(dir, args, {}, runCliInProcess);

/** A function target that leaves a marker file when it is ever called. */
const CONFIG = `import { writeFileSync } from 'node:fs';
export default {
  evals: ['evals/**/*.eval.{yaml,ts}'],
  outputDir: '.out',
  targets: { echo: async (input) => { writeFileSync(process.env.MARKER, 'called'); return 'ok ' + input; } },
};
`;
const EVAL = (suite: string) => `export default { suite: '${suite}', target: 'echo', cases: [{ id: 'a', input: 'x', assert: [{ type: 'contains', value: 'ok' }] }] };\n`;
const LOOP = 'let spins = 0;\nwhile (spins >= 0) spins = (spins + 1) % 1000;\n';
// In-process, the worker stays alive anyway: only the load timer can end this wait.
const NEVER = 'await new Promise(() => {});\n';

/** One line on stderr: the message, no stack. */
function onlyTheMessage(stderr: string): string {
  expect(stderr.trim().split('\n'), stderr).toHaveLength(1);
  expect(stderr).not.toMatch(STACK_FRAME);
  return stderr;
}

/** Killed by the watchdog, with its one line on stderr and no target called; returns stderr. */
function killedBeforeTargets(r: MarkedRun): string {
  expect({ code: r.code, signal: r.signal }, r.stderr).toEqual({ code: null, signal: 'SIGKILL' });
  expect(r.called, 'a target ran despite the stuck module').toBe(false);
  return onlyTheMessage(r.stderr);
}

describe.concurrent('a module whose import never returns', () => {
  it('a config stuck at a top-level await is exit 2 naming it and the limit (--load-timeout)', async () => {
    const dir = writeProject({ 'evals.config.mjs': `${NEVER}${CONFIG}`, 'evals/ok.eval.ts': EVAL('ok') });
    const err = onlyTheMessage(expectStoppedBeforeTargets(await inProcess(dir, ['--load-timeout', '300'])));
    expect(err).toMatch(
      /^agent-evals: evals\.config\.mjs: cannot load: the module did not finish loading within 300 ms \(a top-level await that never settles\?\); raise the limit with --load-timeout/,
    );
  });

  it('a TypeScript eval file stuck at a top-level await is exit 2 naming it, while the others load', async () => {
    const dir = writeProject({ 'evals.config.mjs': CONFIG, 'evals/a-ok.eval.ts': EVAL('ok'), 'evals/wait.eval.ts': `const label: string = 'wait';\n${NEVER}${EVAL('wait')}` });
    // 2 s: room for the config and a-ok.eval.ts to load (and compile) on a loaded machine.
    const err = onlyTheMessage(expectStoppedBeforeTargets(await inProcess(dir, ['--load-timeout', '2000'])));
    expect(err).toMatch(/^agent-evals: evals\/wait\.eval\.ts: cannot load: the module did not finish loading within 2000 ms \(a top-level await that never settles\?\)/);
  });

  it('a config stuck in a synchronous loop: the watchdog writes the message naming it and the limit, and kills the process', async () => {
    const dir = writeProject({ 'evals.config.mjs': `${LOOP}${CONFIG}`, 'evals/ok.eval.ts': EVAL('ok') });
    const err = killedBeforeTargets(await spawned(dir, ['--load-timeout', '300']));
    expect(err).toMatch(
      /^agent-evals: evals\.config\.mjs: cannot load: the module did not finish loading within 300 ms \(its code was still running: a loop that never ends\?\); raise the limit with --load-timeout/,
    );
  });

  it('a TypeScript eval file stuck in a synchronous loop: the same, naming it, while the others load', async () => {
    const ok = 'suite: ok\ntarget: echo\ncases:\n  - { id: a, input: x, assert: [{ type: contains, value: ok }] }\n';
    // The loop spins until the kill: a short bound spends little CPU. Only the plain-JS config must
    // load within it; the other eval file is YAML, so jiti's compile is the stuck file's alone.
    const dir = writeProject({ 'evals.config.mjs': CONFIG, 'evals/a-ok.eval.yaml': ok, 'evals/loop.eval.ts': `const label: string = 'loop';\n${LOOP}${EVAL('loop')}` });
    const err = killedBeforeTargets(await spawned(dir, ['--load-timeout', '2000']));
    expect(err).toMatch(/^agent-evals: evals\/loop\.eval\.ts: cannot load: the module did not finish loading within 2000 ms \(its code was still running: a loop that never ends\?\)/);
  });

  it('outside the CLI (a library use) nothing kills the process: a waiting module is a load error, the next loads go on, and the process ends by itself', async () => {
    const dir = writeProject({ 'a.mjs': 'export default 1;\n', 'wait.mjs': 'await new Promise(() => {});\n', 'b.ts': 'const n: number = 2;\nexport default n;\n' });
    const script = `
      const { importUserModule } = await import(${JSON.stringify(pathToFileURL(join(REPO_ROOT, 'dist/suite/import-module.js')).href)});
      console.log(await importUserModule(${JSON.stringify(join(dir, 'a.mjs'))}));
      await importUserModule(${JSON.stringify(join(dir, 'wait.mjs'))}, 'wait.mjs', 300).catch((e) => console.log(e.message));
      console.log(await importUserModule(${JSON.stringify(join(dir, 'b.ts'))}));
    `;
    // Nothing ends this process but its own empty event loop: a load timer or watchdog thread left
    // behind fails the test. \`-e\` with --input-type=module as a user's script would run it.
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], { cwd: dir, env: { ...process.env, NODE_OPTIONS: '' } });
    const timer = setTimeout(() => child.kill('SIGKILL'), 40_000);
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
    let err = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    clearTimeout(timer);
    expect({ code, err }, out).toEqual({ code: 0, err: '' });
    expect(out.trim().split('\n')).toEqual(['1', expect.stringMatching(/^wait\.mjs: cannot load: the module did not finish loading within 300 ms \(a top-level await/), '2']);
  }, 60_000);
});
