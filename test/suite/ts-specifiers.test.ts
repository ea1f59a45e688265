/**
 * Relative imports of TypeScript files named directly in the compiled code jiti runs
 * (src/suite/ts-specifiers.ts): only where jiti's own resolution would find that very file, so a
 * module loads the same files as before, without jiti's ~150 failed candidates a specifier.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { directTsSpecifiers, type ListDir } from '../../src/suite/ts-specifiers.js';
import { REPO_ROOT, removeTempDirs, tempDir } from '../support/cli.js';

afterAll(removeTempDirs);

/** A folder listing from names; a trailing `/` marks a folder. */
const folders =
  (tree: Record<string, string[]>): ListDir =>
  (dir) =>
    tree[dir]?.map((n) => ({ name: n.replace(/\/$/, ''), isFile: () => !n.endsWith('/') }));

const code = (...specifiers: string[]) => specifiers.map((s, i) => `var _${i} = await jitiImport(${JSON.stringify(s)});`).join('\n');

describe('directTsSpecifiers', () => {
  it('names the .ts (.mts, .cts) file a relative .js (.mjs, .cjs) import means, here and in other folders', () => {
    const list = folders({ '/p/src': ['main.ts', 'agent.ts', 'util.mts', 'old.cts'], '/p/lib': ['store.ts'] });
    expect(directTsSpecifiers(code('./agent.js', './util.mjs', './old.cjs', '../lib/store.js'), '/p/src/main.ts', list)).toBe(code('./agent.ts', './util.mts', './old.cts', '../lib/store.ts'));
  });

  it('leaves to jiti what it would resolve otherwise: a real .js, a name jiti tries first, a folder, no .ts, a bare or non-literal import', () => {
    const list = folders({ '/p': ['main.ts', 'a.js', 'a.ts', 'b.js.ts', 'b.ts', 'c.js/', 'c.ts', 'd.ts/', 'e.tsx'] });
    const source = code('./a.js', './b.js', './c.js', './d.js', './e.js', './missing.js', 'agent-evals', './a.ts') + '\nawait jitiImport(name);';
    expect(directTsSpecifiers(source, '/p/main.ts', list)).toBe(source);
  });

  it('leaves the code as it is when the folder cannot be read', () => {
    const source = code('./agent.js');
    expect(directTsSpecifiers(source, '/gone/main.ts', () => undefined)).toBe(source);
  });
});

/** A fresh process loads `file` through the built CLI's loader (dist/) and prints its default export. */
function loadInChild(file: string): unknown {
  const script = `
    const { importUserModule } = await import(${JSON.stringify(pathToFileURL(join(REPO_ROOT, 'dist/suite/import-module.js')).href)});
    console.log(JSON.stringify(await importUserModule(${JSON.stringify(file)})));
  `;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' } });
  expect(r.stderr).toBe('');
  return JSON.parse(r.stdout) as unknown;
}

describe('a TypeScript module importing `./x.js` (built CLI, cold and warm cache)', () => {
  it('loads x.ts; once an x.js stands beside it, loads x.js, as jiti resolves', () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'node_modules'));
    writeFileSync(join(dir, 'dep.ts'), "export const from: string = 'dep.ts';\n");
    writeFileSync(join(dir, 'main.ts'), "import { from } from './dep.js';\nexport default { from };\n");
    expect(loadInChild(join(dir, 'main.ts'))).toEqual({ from: 'dep.ts' });
    expect(loadInChild(join(dir, 'main.ts'))).toEqual({ from: 'dep.ts' });
    writeFileSync(join(dir, 'dep.js'), "exports.from = 'dep.js';\n");
    expect(loadInChild(join(dir, 'main.ts'))).toEqual({ from: 'dep.js' });
  });
});
