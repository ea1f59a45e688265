/**
 * Output problems are found before any target runs: an `outputDir` that is a file, or a report
 * path that is empty or a directory, is exit 2 naming it, with no target called; exit 1 stays
 * reserved for failed cases.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { removeTempDirs } from '../support/cli.js';
import { runCliInProcess } from '../support/cli-in-process.js';
import { expectStoppedBeforeTargets as expectOutputError, runMarked, writeProject } from '../support/temp-project.js';

/** The CLI's `main` in-process; GITHUB_STEP_SUMMARY from the parent never reaches these runs unless a test sets it. */
const run = (dir: string, args: string[], env: Record<string, string> = {}) => runMarked(dir, args, { GITHUB_STEP_SUMMARY: undefined, ...env }, runCliInProcess);

afterAll(removeTempDirs);

/** A command target that leaves a marker file when it is ever started. */
const PROJECT = (config: string) => ({
  'agent.mjs': `import { writeFileSync } from 'node:fs';\nwriteFileSync(process.env.MARKER, 'started');\nprocess.stdout.write(JSON.stringify({ reply: 'ok' }));\n`,
  'evals.config.mjs': `export default { evals: ['evals/*.eval.yaml'], targets: { agent: { command: ['node', 'agent.mjs'], inheritEnv: ['PATH', 'MARKER'] } }, ${config} };\n`,
  'evals/a.eval.yaml': `suite: a\ntarget: agent\ncases:\n  - { id: one, input: x, assert: [{ type: contains, value: ok }] }\n`,
});

describe.concurrent('output problems before the first trial', () => {
  it('an outputDir that is a file is exit 2 naming the config field, no target started', async () => {
    const dir = writeProject({ ...PROJECT(`outputDir: 'out.txt', reporters: ['terminal', 'json']`), 'out.txt': 'not a folder' });
    const err = expectOutputError(await run(dir, []));
    expect(err).toMatch(/evals\.config\.mjs: outputDir: cannot write .*out\.txt: .*is a file, not a folder/);
  });

  it('an outputDir under a file (not creatable) is exit 2', async () => {
    const dir = writeProject({ ...PROJECT(`outputDir: 'out.txt/deeper'`), 'out.txt': 'not a folder' });
    const err = expectOutputError(await run(dir, ['--json']));
    expect(err).toMatch(/outputDir: cannot write .*deeper/);
  });

  it('--json to a directory is exit 2', async () => {
    const dir = writeProject(PROJECT(`outputDir: '.out'`));
    mkdirSync(join(dir, 'results-dir'));
    const err = expectOutputError(await run(dir, ['--json', 'results-dir']));
    expect(err).toMatch(/json reporter: cannot write .*results-dir: it is a directory/);
  });

  it('an empty reporter path is exit 2', async () => {
    const dir = writeProject(PROJECT(`outputDir: '.out'`));
    const err = expectOutputError(await run(dir, ['--reporter', 'junit=']));
    expect(err).toContain('junit reporter: the junit reporter was given an empty path');
  });

  it('a GitHub step summary that is a directory is exit 2', async () => {
    const dir = writeProject(PROJECT(`outputDir: '.out'`));
    mkdirSync(join(dir, 'summary'));
    const err = expectOutputError(await run(dir, ['--reporter', 'github'], { GITHUB_STEP_SUMMARY: join(dir, 'summary') }));
    expect(err).toMatch(/GITHUB_STEP_SUMMARY: cannot write .*summary: it is a directory/);
  });

  it('a writable output runs as before, and the probe leaves nothing behind', async () => {
    const dir = writeProject(PROJECT(`outputDir: '.out'`));
    const r = await run(dir, ['--json', 'nested/new/results.json']);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.called).toBe(true);
    expect(readdirSync(join(dir, 'nested', 'new'))).toEqual(['results.json']);
    expect(readdirSync(join(dir, '.out'))).toEqual(['runs']);
  });
});
