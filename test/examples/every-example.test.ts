/**
 * Every example under examples/ is run by a test: a folder no test file names (by its path from the
 * repository root) is an example nobody runs, which is how one goes stale against the code it shows.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../support/cli.js';

/** The example folders: each folder under examples/, and each one under examples/frameworks/. */
function exampleFolders(): string[] {
  const under = (dir: string) =>
    readdirSync(join(REPO_ROOT, dir))
      .filter((name) => name !== 'node_modules' && statSync(join(REPO_ROOT, dir, name)).isDirectory())
      .map((name) => `${dir}/${name}`);
  return under('examples').flatMap((dir) => (dir === 'examples/frameworks' ? under(dir) : [dir]));
}

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? testFiles(join(dir, e.name)) : e.name.endsWith('.test.ts') ? [join(dir, e.name)] : []));
}

describe('the examples', () => {
  it('each example folder is named by a test file that runs it', () => {
    const tests = testFiles(join(REPO_ROOT, 'test')).filter((f) => !f.endsWith('every-example.test.ts'));
    const texts = tests.map((f) => [relative(REPO_ROOT, f), readFileSync(f, 'utf8')] as const);
    const folders = exampleFolders();
    expect(folders.length).toBeGreaterThan(5);
    const unrun = folders.filter((folder) => !texts.some(([, text]) => text.includes(`${folder}/`) || text.includes(`'${folder}'`)));
    expect(unrun).toEqual([]);
  });
});
