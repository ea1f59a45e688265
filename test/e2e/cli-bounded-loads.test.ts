/**
 * Loads are bounded: a YAML alias bomb is a load error at its line, a module whose top-level
 * await never settles is a load error once the load timeout passes (not Node's silent exit 13 or
 * a hang), and a thrown non-Error reads as JSON. All exit 2 before any target runs. An eval file
 * that never settles is loaded by the spawned CLI (the process is what must not hang or die
 * silently, and the module stays pending); the rest by the CLI's `main` in-process.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { removeTempDirs, runCli } from '../support/cli.js';
import { runCliInProcess } from '../support/cli-in-process.js';
import { expectStoppedBeforeTargets as expectLoadError, runMarked, writeProject } from '../support/temp-project.js';

afterAll(removeTempDirs);

const run = (dir: string, args: string[] = []) => runMarked(dir, args, {}, runCliInProcess);
/** The spawned CLI, for a load that never settles. */
const spawned = (dir: string, args: string[] = []) => runMarked(dir, args, {}, runCli);

/** A function target that leaves a marker file when it is ever called. */
const CONFIG = (extra = '') => `import { writeFileSync } from 'node:fs';
export default {
  evals: ['evals/**/*.eval.{yaml,ts}'],
  outputDir: '.out',
  targets: { echo: async (input) => { writeFileSync(process.env.MARKER, 'called'); return 'ok ' + input; } },
  ${extra}
};
`;

const CASE = `cases: [{ id: 'a', input: 'x', assert: [{ type: 'contains', value: 'ok' }] }]`;

/** Seven levels of nine aliases each: 9^7 leaves once expanded. */
function aliasBomb(indent: string): string {
  const names = ['a', 'b', 'c', 'd', 'e', 'f', 'g'];
  return names.map((n, i) => `${indent}${n}: &${n} [${Array.from({ length: 9 }, () => (i === 0 ? '"lol"' : `*${names[i - 1]}`)).join(', ')}]`).join('\n');
}

describe.concurrent('bounded loads', () => {
  it('a seven-level YAML alias bomb in a case is exit 2 at its line, naming the file', async () => {
    const dir = writeProject({
      'evals.config.mjs': CONFIG(),
      'evals/bomb.eval.yaml': `suite: bomb\ntarget: echo\ncases:\n  - id: a\n    input: x\n    metadata:\n${aliasBomb('      ')}\n    assert:\n      - { type: contains, value: ok }\n`,
    });
    const err = expectLoadError(await run(dir));
    // Line 13 is `g:`, whose aliases stand for the most nodes.
    expect(err).toMatch(/evals\/bomb\.eval\.yaml:13: YAML aliases expand too far/);
  });

  it('a bomb that also breaks the schema is still a located load error (the error path is bounded too)', async () => {
    const dir = writeProject({
      'evals.config.mjs': CONFIG(),
      'evals/bomb.eval.yaml': `suite: bomb\ntarget: echo\n${aliasBomb('')}\ncases:\n  - id: a\n    input: *g\n`,
    });
    const err = expectLoadError(await run(dir));
    expect(err).toMatch(/evals\/bomb\.eval\.yaml:\d+: YAML aliases expand too far/);
  });

  it('an anchor reused by many cases still loads and runs', async () => {
    // The first case defines the assertions, 150 more reuse them: more than yaml's default bound of 100.
    const cases = Array.from({ length: 150 }, (_, i) => `  - { id: c${i}, input: x, assert: *checks }`).join('\n');
    const text = `suite: shared\ntarget: echo\ncases:\n  - { id: first, input: x, assert: &checks [{ type: contains, value: ok }] }\n${cases}\n`;
    const r = await run(writeProject({ 'evals.config.mjs': CONFIG(), 'evals/shared.eval.yaml': text }));
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toContain('151 passed');
  });

  it('an eval .ts whose top-level await never settles is exit 2 naming it after the load timeout (config loadTimeoutMs)', async () => {
    const dir = writeProject({
      // 2 s: room for ok.eval.ts to load on a busy machine; hang.eval.ts never finishes however long the bound.
      'evals.config.mjs': CONFIG('loadTimeoutMs: 2000,'),
      'evals/ok.eval.ts': `export default { suite: 'ok', target: 'echo', ${CASE} };\n`,
      // A pending promise and nothing else: without the timer Node ends with exit 13 and no message.
      'evals/hang.eval.ts': `await new Promise(() => {});\nexport default { suite: 'hang', target: 'echo', ${CASE} };\n`,
    });
    const err = expectLoadError(await spawned(dir));
    expect(err).toMatch(/evals\/hang\.eval\.ts: cannot load: the module did not finish loading within 2000 ms/);
    expect(err).not.toContain('ok.eval.ts');
  });

  it('a hanging eval .ts that keeps the event loop busy is cut off too (--load-timeout)', async () => {
    const dir = writeProject({
      'evals.config.mjs': CONFIG(),
      'evals/busy.eval.ts': `setInterval(() => {}, 1000);\nawait new Promise(() => {});\nexport default { suite: 'busy', target: 'echo', ${CASE} };\n`,
    });
    // The bound covers the config's load too: 2 s leaves a busy machine room to load the config, while
    // the eval file never finishes however long the bound.
    const err = expectLoadError(await spawned(dir, ['--load-timeout', '2000']));
    expect(err).toMatch(/evals\/busy\.eval\.ts: cannot load: the module did not finish loading within 2000 ms/);
  });

  it('a module that throws a non-Error shows it as JSON', async () => {
    const dir = writeProject({
      'evals.config.mjs': CONFIG(),
      'evals/throws.eval.ts': `throw { code: 1, why: 'nope' };\n`,
    });
    const err = expectLoadError(await run(dir));
    expect(err).toContain('evals/throws.eval.ts: cannot load: {"code":1,"why":"nope"}');
    expect(err).not.toContain('[object Object]');
  });
});
