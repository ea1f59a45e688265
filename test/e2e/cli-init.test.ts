/**
 * `agent-evals init` scaffolds a project that runs green offline at once, keeps every existing file
 * unless --force, and picks a TypeScript or JavaScript config by what the project has. The first
 * test's `run` of the scaffolded project is the spawned binary (the quick start as a user types it);
 * every other command runs the CLI's `main` in-process.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { REPO_ROOT, removeTempDirs, runCli, tempDir } from '../support/cli.js';
import { runCliInProcess } from '../support/cli-in-process.js';

afterEach(() => removeTempDirs());

/** A fresh folder where `agent-evals` resolves as after `npm i -D agent-evals` (a link to this repo). */
function project(files: Record<string, string> = {}): string {
  const dir = tempDir('agent-evals-init-');
  mkdirSync(join(dir, 'node_modules'));
  symlinkSync(REPO_ROOT, join(dir, 'node_modules', 'agent-evals'), 'dir');
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

/** Every file's bytes by relative path, outside node_modules and the run output. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      if (e.name === 'node_modules' || e.name === '.agent-evals') continue;
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else out[relative(dir, p)] = readFileSync(p).toString('base64');
    }
  };
  walk(dir);
  return out;
}

interface ResultsDoc {
  summary: { cases: { passed: number; total: number } };
  cases: { trials: { assertions: { kind: string; status: string }[] }[] }[];
}

describe('agent-evals init', () => {
  it('scaffolds an empty folder that `run` passes offline, judged assertion included', async () => {
    const dir = project();
    const init = await runCliInProcess(['init'], { cwd: dir, env: { OPENAI_API_KEY: undefined, ANTHROPIC_API_KEY: undefined } });
    expect(init.code, init.stderr).toBe(0);
    for (const name of ['evals.config.mjs', 'evals/example.eval.yaml', '.gitignore']) expect(init.stdout).toMatch(new RegExp(`created\\s+${name.replace('.', '\\.')}`));
    expect(existsSync(join(dir, 'evals.config.ts'))).toBe(false);
    expect(readFileSync(join(dir, '.gitignore'), 'utf8')).toBe('.agent-evals/\n');
    const evalText = readFileSync(join(dir, 'evals/example.eval.yaml'), 'utf8');
    const schemaPath = /^# yaml-language-server: \$schema=(\S+)\n/.exec(evalText)?.[1];
    expect(schemaPath).toBeDefined();
    // The schema line points at a file that exists once the package is installed.
    expect(existsSync(join(dir, 'evals', schemaPath!))).toBe(true);

    const run = await runCli(['run', '--json', 'out.json'], { cwd: dir, env: { OPENAI_API_KEY: undefined, ANTHROPIC_API_KEY: undefined } });
    expect(run.code, run.stdout + run.stderr).toBe(0);
    const doc = JSON.parse(readFileSync(join(dir, 'out.json'), 'utf8')) as ResultsDoc;
    expect(doc.summary.cases.total).toBeGreaterThan(0);
    expect(doc.summary.cases.passed).toBe(doc.summary.cases.total);
    const judged = doc.cases.flatMap((c) => c.trials.flatMap((t) => t.assertions)).filter((a) => a.kind === 'judge');
    expect(judged.length).toBeGreaterThan(0);
    expect(judged.every((a) => a.status === 'passed')).toBe(true);
  });

  it('a second init leaves every file byte-identical and reports each as kept', async () => {
    const dir = project();
    expect((await runCliInProcess(['init'], { cwd: dir })).code).toBe(0);
    const before = snapshot(dir);
    expect(Object.keys(before).sort()).toEqual(['.gitignore', 'evals.config.mjs', 'evals/example.eval.yaml']);
    const again = await runCliInProcess(['init'], { cwd: dir });
    expect(again.code, again.stderr).toBe(0);
    expect(snapshot(dir)).toEqual(before);
    expect(again.stdout).not.toContain('created');
    expect(again.stdout.match(/^kept\s/gm)).toHaveLength(3);
  });

  it('keeps edited files and a config of another name; --force rewrites them', async () => {
    const dir = project({ 'evals.config.js': 'export default { targets: {} };\n' });
    mkdirSync(join(dir, 'evals'));
    writeFileSync(join(dir, 'evals/example.eval.yaml'), 'suite: mine\n');
    const init = await runCliInProcess(['init'], { cwd: dir });
    expect(init.code).toBe(0);
    expect(init.stdout).toMatch(/kept\s+evals\.config\.js/);
    expect(existsSync(join(dir, 'evals.config.mjs')), 'a second config beside the existing one').toBe(false);
    expect(readFileSync(join(dir, 'evals.config.js'), 'utf8')).toBe('export default { targets: {} };\n');
    expect(readFileSync(join(dir, 'evals/example.eval.yaml'), 'utf8')).toBe('suite: mine\n');

    const forced = await runCliInProcess(['init', '--force'], { cwd: dir });
    expect(forced.code).toBe(0);
    expect(forced.stdout).toMatch(/overwritten\s+evals\.config\.js/);
    expect(forced.stdout).toMatch(/overwritten\s+evals\/example\.eval\.yaml/);
    expect(readFileSync(join(dir, 'evals.config.js'), 'utf8')).toContain("judge: 'fake'");
    expect(readFileSync(join(dir, 'evals/example.eval.yaml'), 'utf8')).toMatch(/^# yaml-language-server: /);
  });

  it('appends the .gitignore entry only when missing, keeping the lines there', async () => {
    const dir = project({ '.gitignore': 'node_modules/\ndist' });
    const first = await runCliInProcess(['init'], { cwd: dir });
    expect(first.stdout).toMatch(/updated\s+\.gitignore/);
    expect(readFileSync(join(dir, '.gitignore'), 'utf8')).toBe('node_modules/\ndist\n.agent-evals/\n');
    const second = await runCliInProcess(['init', '--force'], { cwd: dir });
    expect(second.stdout).toMatch(/kept\s+\.gitignore/);
    expect(readFileSync(join(dir, '.gitignore'), 'utf8')).toBe('node_modules/\ndist\n.agent-evals/\n');
  });

  it.each([
    ['a tsconfig.json', { 'tsconfig.json': '{}\n' }],
    ['a typescript devDependency', { 'package.json': JSON.stringify({ devDependencies: { typescript: '5.0.0' } }) }],
  ])('writes evals.config.ts for a project with %s, and it runs', async (_, files) => {
    const dir = project(files);
    const init = await runCliInProcess(['init'], { cwd: dir });
    expect(init.stdout).toMatch(/created\s+evals\.config\.ts/);
    expect(existsSync(join(dir, 'evals.config.mjs'))).toBe(false);
    expect(readFileSync(join(dir, 'evals.config.ts'), 'utf8')).toContain('(input: string): string');
    const run = await runCliInProcess(['run'], { cwd: dir });
    expect(run.code, run.stdout + run.stderr).toBe(0);
  });

  it('writes evals.config.mjs for a JavaScript project (package.json without typescript)', async () => {
    const dir = project({ 'package.json': JSON.stringify({ devDependencies: { vitest: '1.0.0' } }) });
    const init = await runCliInProcess(['init'], { cwd: dir });
    expect(init.stdout).toMatch(/created\s+evals\.config\.mjs/);
    expect(existsSync(join(dir, 'evals.config.ts'))).toBe(false);
  });
});
