/**
 * A config or eval module stuck in a synchronous loop at import is cut off by the load timeout:
 * the loop never yields, so only the load watchdog (src/suite/load-watchdog.ts) can stop it. The
 * spawned CLI is what must not hang; the loops never end, so the outcome does not depend on the
 * machine's speed (the limits leave a busy machine room to load the modules that do finish).
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { CLI, REPO_ROOT, removeTempDirs, runCli } from '../support/cli.js';
import { runWithModuleProbe } from '../support/module-probe.js';
import { expectStoppedBeforeTargets, runMarked, writeProject } from '../support/temp-project.js';

afterAll(removeTempDirs);

const spawned = (dir: string, args: string[]) => runMarked(dir, args, {}, runCli);

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

/** Exit 2 and one line on stderr: the message, no stack, nothing from the inspector. */
function onlyTheMessage(stderr: string): string {
  expect(stderr.trim().split('\n'), stderr).toHaveLength(1);
  expect(stderr).not.toContain('debugger');
  return stderr;
}

describe.concurrent('a module stuck in a synchronous loop at import', () => {
  it('a config that never returns from its top level is exit 2 naming it and the limit (--load-timeout)', async () => {
    const dir = writeProject({ 'evals.config.mjs': `${LOOP}${CONFIG}`, 'evals/ok.eval.ts': EVAL('ok') });
    const err = onlyTheMessage(expectStoppedBeforeTargets(await spawned(dir, ['--load-timeout', '300'])));
    expect(err).toMatch(
      /evals\.config\.mjs: cannot load: the module did not finish loading within 300 ms \(its code was still running: a loop that never ends\?\); raise the limit with --load-timeout/,
    );
  });

  it('an eval .ts that never returns from its top level is exit 2 naming it, while the others load', async () => {
    const dir = writeProject({
      'evals.config.mjs': CONFIG,
      'evals/a-ok.eval.ts': EVAL('ok'),
      'evals/loop.eval.ts': `const label: string = 'loop';\n${LOOP}export default { suite: label, target: 'echo', cases: [] };\n`,
    });
    // 10 s: room for the config and a-ok.eval.ts to load on a loaded machine (2 s was too little once, with
    // the cores loaded far past busy); the loop never ends however long the bound.
    const err = onlyTheMessage(expectStoppedBeforeTargets(await spawned(dir, ['--load-timeout', '10000'])));
    expect(err).toMatch(/evals\/loop\.eval\.ts: cannot load: the module did not finish loading within 10000 ms \(its code was still running: a loop that never ends\?\)/);
  });

  it('warm (compiled in the cache), a TypeScript config and eval load in one call V8 bounds: a loop in the eval is cut off the same way, with no watchdog thread', () => {
    const dir = writeProject({
      'evals.config.ts': CONFIG,
      'evals/a-ok.eval.ts': EVAL('ok'),
      'evals/loop.eval.ts': `const label: string = 'loop';\n${LOOP}export default { suite: label, target: 'echo', cases: [] };\n`,
    });
    // 10 s, as above: the TypeScript config must load within the bound on a loaded machine.
    const list = () => runWithModuleProbe(CLI, ['list', '--load-timeout', '10000'], dir);
    // The first run compiles the modules (jiti; the watchdog cuts the loop off); the second finds them all compiled.
    const [cold, warm] = [list(), list()];
    for (const r of [cold, warm]) {
      expect(r.code, r.stderr).toBe(2);
      expect(onlyTheMessage(r.stderr)).toMatch(/evals\/loop\.eval\.ts: cannot load: the module did not finish loading within 10000 ms \(its code was still running: a loop that never ends\?\)/);
    }
    // The watchdog asks the inspector whether a debugger is attached before its thread starts: the warm run never did.
    expect(cold.builtins).toContain('inspector');
    expect(warm.builtins).not.toContain('inspector');
  }, 120_000);

  it('a process that loads modules, one of them stuck, goes on loading and then ends by itself', async () => {
    const dir = writeProject({ 'a.mjs': 'export default 1;\n', 'loop.mjs': LOOP, 'b.ts': 'const n: number = 2;\nexport default n;\n' });
    const script = `
      const { importUserModule } = await import(${JSON.stringify(pathToFileURL(join(REPO_ROOT, 'dist/suite/import-module.js')).href)});
      console.log(await importUserModule(${JSON.stringify(join(dir, 'a.mjs'))}));
      await importUserModule(${JSON.stringify(join(dir, 'loop.mjs'))}, 'loop.mjs', 300).catch((e) => console.log(e.message));
      console.log(await importUserModule(${JSON.stringify(join(dir, 'b.ts'))}));
    `;
    // Nothing ends this process but its own empty event loop: a watchdog thread that held it open for
    // good (neither unref'd nor stopped when idle) fails the test. `-e` with --input-type=module also
    // checks that the watchdog's source ignores that flag.
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], { cwd: dir, env: { ...process.env, NODE_OPTIONS: '' } });
    const timer = setTimeout(() => child.kill('SIGKILL'), 40_000);
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
    let err = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    clearTimeout(timer);
    expect({ code, err }, out).toEqual({ code: 0, err: '' });
    expect(out.trim().split('\n')).toEqual(['1', expect.stringMatching(/^loop\.mjs: cannot load: the module did not finish loading within 300 ms \(its code was still running/), '2']);
  }, 60_000);
});
