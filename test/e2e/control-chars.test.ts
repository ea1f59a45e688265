/** Case ids from an eval file carry ESC and bidi controls: `list`, the terminal and `github` show them escaped. */
import { afterAll, describe, expect, it } from 'vitest';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { removeTempDirs, tempDir } from '../support/cli.js';
import { runCliInProcess } from '../support/cli-in-process.js';

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

/**
 * What the CLI prints (its `main` in-process: the text is the subject, not the process), colours off.
 * The capture drops CSI sequences (`ESC[…`) only: were the id printed raw, its OSC link (`ESC]8;;`),
 * BEL and bidi controls would still be there for RAW to find.
 */
const cli = (args: string[], cwd: string) => runCliInProcess(args, { cwd });

describe('control and bidi characters in ids', () => {
  it('list, the terminal and github print them as escapes', async () => {
    const dir = project();
    const list = await cli(['list'], dir);
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout).toContain('evil\\u202egnp.exe\\x1b]8;;x\\x07\\x1b[2J');
    expect(list.stdout).not.toMatch(RAW);

    const run = await cli(['run', '--reporter', 'terminal', '--reporter', 'github'], dir);
    expect(run.code, run.stderr).toBe(1);
    expect(run.stdout).toContain('ids/evil\\u202egnp.exe');
    expect(run.stdout).toMatch(/^::error file=/m);
    expect(run.stdout).not.toMatch(RAW);
  });
});
