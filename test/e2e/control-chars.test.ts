/** Case ids from an eval file carry ESC and bidi controls: `list`, the terminal and `github` show them escaped. */
import { afterAll, describe, expect, it } from 'vitest';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { CLI, removeTempDirs, tempDir } from '../support/cli.js';

afterAll(removeTempDirs);

const RAW = /[\x07\x1b\x9b\u202a-\u202e\u2066-\u2069]/;

function project(): string {
  const dir = tempDir();
  writeFileSync(join(dir, 'evals.config.mjs'), `export default { evals: ['evals/*.eval.yaml'], outputDir: 'out', targets: { fn: async () => 'no' } };\n`);
  mkdirSync(join(dir, 'evals'));
  writeFileSync(
    join(dir, 'evals', 'ids.eval.yaml'),
    ['suite: ids', 'target: fn', 'cases:', '  - id: "evil\\u202egnp.exe\\e]8;;x\\a\\e[2J"', '    input: hi', '    assert: [{ type: contains, value: yes }]', ''].join('\n'),
  );
  return dir;
}

/** Raw output, colours off: any ESC left is the case's own. */
function cli(args: string[], cwd: string) {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1' };
  delete env.FORCE_COLOR;
  delete env.CI;
  delete env.NODE_OPTIONS;
  return spawnSync(process.execPath, [CLI, ...args], { cwd, env, encoding: 'utf8', timeout: 60_000 });
}

describe('control and bidi characters in ids', () => {
  it('list, the terminal and github print them as escapes', () => {
    const dir = project();
    const list = cli(['list'], dir);
    expect(list.status, list.stderr).toBe(0);
    expect(list.stdout).toContain('evil\\u202egnp.exe\\x1b]8;;x\\x07\\x1b[2J');
    expect(list.stdout).not.toMatch(RAW);

    const run = cli(['run', '--reporter', 'terminal', '--reporter', 'github'], dir);
    expect(run.status, run.stderr).toBe(1);
    expect(run.stdout).toContain('ids/evil\\u202egnp.exe');
    expect(run.stdout).toMatch(/^::error file=/m);
    expect(run.stdout).not.toMatch(RAW);
  });
});
