/**
 * The user-assertion example run by the CLI (in process, from dist/): its `- type: wordCount`
 * entries are checked by the module, a throwing one fails its assertion only, and a name clash
 * with a built-in is exit 2 before any target runs.
 */
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCliInProcess } from '../support/cli-in-process.js';
import { REPO_ROOT, STACK_FRAME, tempDir } from '../support/cli.js';

function exampleCopy(): string {
  const dir = tempDir();
  cpSync(join(REPO_ROOT, 'examples', 'assertions'), dir, { recursive: true });
  return dir;
}

describe('user assertions through the CLI', () => {
  it('runs the example: each wordCount entry is scored by the module', async () => {
    const dir = exampleCopy();
    const json = join(dir, 'results.json');
    const r = await runCliInProcess(['run', '--json', json], { cwd: dir, timeoutMs: 60_000 });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const results = JSON.parse(readFileSync(json, 'utf8')) as { cases: Array<{ trials: Array<{ assertions: Array<{ status: string; message: string }> }> }> };
    const assertions = results.cases[0]!.trials[0]!.assertions;
    expect(assertions.map((a) => a.status)).toEqual(['passed', 'passed']);
    expect(assertions[0]!.message).toContain('3 words (expected 0 to 5)');
  });

  it('a throwing user assertion fails its assertion with the message, and the run goes on', async () => {
    const dir = exampleCopy();
    writeFileSync(join(dir, 'throws.mjs'), "export default { apiVersion: 1, name: 'explodes', evaluate() { throw new Error('no budget table'); } };\n");
    writeFileSync(
      join(dir, 'evals.config.mjs'),
      "export default { evals: ['*.eval.yaml'], assertions: ['./word-count.mjs', './throws.mjs'], targets: { echo: { command: ['node', 'echo-agent.mjs'] } } };\n",
    );
    writeFileSync(
      join(dir, 'brief.eval.yaml'),
      'suite: s\ntarget: echo\ncases:\n  - id: a\n    input: one two\n    assert:\n      - type: explodes\n  - id: b\n    input: one two\n    assert:\n      - type: wordCount\n        max: 5\n',
    );
    const json = join(dir, 'results.json');
    const r = await runCliInProcess(['run', '--json', json], { cwd: dir, timeoutMs: 60_000 });
    expect(r.code, r.stdout + r.stderr).toBe(1);
    const results = JSON.parse(readFileSync(json, 'utf8')) as { cases: Array<{ id: string; verdict: string; trials: Array<{ assertions: Array<{ status: string; message: string }> }> }> };
    const [a, b] = results.cases;
    expect(a!.trials[0]!.assertions[0]).toMatchObject({ status: 'failed', message: 'explodes threw: no budget table' });
    expect(b!.verdict).toBe('passed');
  });

  it('a user assertion named like a built-in is exit 2, naming the config entry', async () => {
    const dir = exampleCopy();
    writeFileSync(join(dir, 'regex.mjs'), "export default { apiVersion: 1, name: 'regex', evaluate: () => true };\n");
    writeFileSync(join(dir, 'evals.config.mjs'), "export default { evals: ['*.eval.yaml'], assertions: ['./regex.mjs'], targets: { echo: { command: ['node', 'echo-agent.mjs'] } } };\n");
    const r = await runCliInProcess(['run'], { cwd: dir, timeoutMs: 60_000 });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('evals.config.mjs: assertions[0]: ./regex.mjs: "regex" is the name of a built-in assertion');
    expect(r.stderr).not.toMatch(STACK_FRAME);
  });
});
