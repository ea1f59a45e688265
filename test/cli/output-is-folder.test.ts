/**
 * The commands that write one file from results already on disk (`report -o`, `report --history -o`,
 * `merge -o`, `compare --json <path>`) given a folder as that file: exit 2 naming the path and the
 * flag, no stack trace, no temp file left beside it — as `run --json <folder>` already is — not an
 * internal error (exit 1) at the final rename. In-process (dist/: `npm run build` first).
 */
import { mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STACK_FRAME, removeTempDirs } from '../support/cli.js';
import { runCliInProcess } from '../support/cli-in-process.js';
import { writeProject } from '../support/temp-project.js';

afterAll(() => removeTempDirs());

let dir = '';

beforeAll(async () => {
  dir = writeProject({
    'evals.config.mjs': "export default { evals: ['*.eval.yaml'], targets: { fixed: () => 'shipped' } };\n",
    'a.eval.yaml':
      'suite: a\ntarget: fixed\ncases:\n  - { id: one, input: go, assert: [{ type: contains, value: shipped }] }\n  - { id: two, input: go, assert: [{ type: contains, value: shipped }] }\n',
  });
  for (const args of [
    ['run', '--silent', '--json', 'results.json'],
    ['run', '--silent', '--shard', '1/2', '--json', 's1.json'],
    ['run', '--silent', '--shard', '2/2', '--json', 's2.json'],
  ]) {
    const r = await runCliInProcess(args, { cwd: dir });
    expect(r.code, r.stdout + r.stderr).toBe(0);
  }
  mkdirSync(join(dir, 'out'));
});

describe('a folder given as the file to write', () => {
  it.each([
    ['report', ['report', 'results.json', '-o', 'out'], '--output'],
    ['report --history', ['report', '--history', 'results.json', '-o', 'out'], '--output'],
    ['merge', ['merge', 's1.json', 's2.json', '-o', 'out'], '--output'],
    ['compare --json', ['compare', 'results.json', 'results.json', '--json', 'out'], '--json'],
  ])('%s: exit 2 naming the flag and the folder, nothing written', async (_name, args, flag) => {
    const before = readdirSync(dir).sort();
    const r = await runCliInProcess(args, { cwd: dir });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain(`${flag}: cannot write ${join(dir, 'out')}: it is a directory`);
    expect(r.stderr).not.toContain('internal error');
    expect(r.stderr).not.toMatch(STACK_FRAME);
    expect(readdirSync(dir).sort()).toEqual(before);
    expect(readdirSync(join(dir, 'out'))).toEqual([]);
  });
});
