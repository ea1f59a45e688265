/**
 * What the published package holds and exports: its JSON Schemas under
 * `agent-evals/schemas/<name>.json` (resolved from a project that has the package in node_modules,
 * by require and by ESM), the README's editor line pointing at it, and a LICENSE file in the tarball.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO_ROOT, removeTempDirs, tempDir } from '../support/cli.js';
import { packedPackage } from '../support/process-pack.js';

afterAll(removeTempDirs);

const run = promisify(execFile);
const SCHEMAS = ['eval-file', 'score-file', 'results', 'calibration'];

/** A project with the package installed as a symlink in its node_modules. */
function projectWithPackage(): string {
  const dir = tempDir('agent-evals-exports-');
  mkdirSync(join(dir, 'node_modules'));
  symlinkSync(REPO_ROOT, join(dir, 'node_modules', 'agent-evals'), 'dir');
  writeFileSync(join(dir, 'package.json'), '{ "name": "consumer", "type": "module" }\n');
  return dir;
}

describe('the package', () => {
  it.each(SCHEMAS)('exports agent-evals/schemas/%s.json to its generated schema', (name) => {
    const dir = projectWithPackage();
    const resolved = createRequire(join(dir, 'index.js')).resolve(`agent-evals/schemas/${name}.json`);
    const file = join(REPO_ROOT, 'schemas', `${name}.schema.json`);
    expect(resolved).toBe(realpathSync(file));
    expect(JSON.parse(readFileSync(resolved, 'utf8'))).toEqual(JSON.parse(readFileSync(file, 'utf8')));
  });

  it('resolves agent-evals/schemas/eval-file.json from ESM too', async () => {
    const dir = projectWithPackage();
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', `process.stdout.write(import.meta.resolve('agent-evals/schemas/eval-file.json'))`], { cwd: dir });
    expect(stdout).toMatch(/\/schemas\/eval-file\.schema\.json$/);
  });

  it("the README's yaml-language-server line, from an evals/ file, names the installed eval-file schema", () => {
    const dir = projectWithPackage();
    const line = /^# yaml-language-server: \$schema=(\S+)$/m.exec(readFileSync(join(REPO_ROOT, 'README.md'), 'utf8'));
    expect(line, 'no yaml-language-server line in the README').not.toBeNull();
    const target = resolve(dir, 'evals', line![1]!);
    expect(realpathSync(target)).toBe(realpathSync(join(REPO_ROOT, 'schemas', 'eval-file.schema.json')));
  });

  it('ships LICENSE (MIT, as package.json says) in the tarball', async () => {
    const { files } = await packedPackage();
    expect(files).toContain('LICENSE');
    expect(files).toEqual(expect.arrayContaining(SCHEMAS.map((n) => `schemas/${n}.schema.json`)));
    expect(readFileSync(join(REPO_ROOT, 'LICENSE'), 'utf8')).toMatch(/^MIT License\n\nCopyright \(c\) 2026 the agent-evals authors\n/);
    expect(JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8'))).toMatchObject({ license: 'MIT' });
  });
});
