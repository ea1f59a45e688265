/**
 * The on-disk cache of compiled TypeScript modules (src/suite/ts-cache.ts): a warm load reads the
 * stored text and never loads jiti's compiler; a changed source is compiled anew (never a stale
 * module); entries are written whole, and one that is torn or cannot be read is compiled again.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { cacheDirFor, cachedTransform, entryKey, type Transform, type TransformOptions } from '../../src/suite/ts-cache.js';
import { REPO_ROOT, removeTempDirs, tempDir } from '../support/cli.js';

afterAll(removeTempDirs);

/** A project with its own node_modules, so its cache is its own: `<dir>/node_modules/.cache/agent-evals/ts`. */
function project(): { dir: string; cache: string } {
  const dir = tempDir();
  mkdirSync(join(dir, 'node_modules'));
  return { dir, cache: join(dir, 'node_modules', '.cache', 'agent-evals', 'ts') };
}

/** A compiler that counts its compiles and marks its output with the source it was given. */
function countingCompiler() {
  const calls: string[] = [];
  const compile: Transform = (opts) => {
    calls.push(opts.source);
    return { code: `/* compiled */ ${opts.source}` };
  };
  return { calls, compile: () => compile };
}

const opts = (filename: string, source: string): TransformOptions => ({ source, filename, ts: true, async: true, interopDefault: true, babel: {} });

describe('cachedTransform', () => {
  it('compiles a source once, stores it under the project node_modules, and serves it from there after', () => {
    const { dir, cache } = project();
    const file = join(dir, 'a.ts');
    expect(cacheDirFor(file)).toBe(cache);
    const c = countingCompiler();
    const first = cachedTransform(opts(file, 'export default 1;'), c.compile);
    const second = cachedTransform(opts(file, 'export default 1;'), c.compile);
    expect(second).toEqual(first);
    expect(c.calls).toEqual(['export default 1;']);
    // Written whole: the entry alone, no temporary file left beside it.
    expect(readdirSync(cache)).toEqual([`${entryKey(opts(file, 'export default 1;'))}.js`]);
  });

  it('a changed source, file or compile option is a new entry: never the stale compile', () => {
    const { dir } = project();
    const c = countingCompiler();
    cachedTransform(opts(join(dir, 'a.ts'), 'export default 1;'), c.compile);
    expect(cachedTransform(opts(join(dir, 'a.ts'), 'export default 2;'), c.compile).code).toBe('/* compiled */ export default 2;');
    cachedTransform(opts(join(dir, 'b.ts'), 'export default 2;'), c.compile);
    cachedTransform({ ...opts(join(dir, 'b.ts'), 'export default 2;'), async: false }, c.compile);
    expect(c.calls).toHaveLength(4);
  });

  it('a torn entry (no closing stamp) or one that cannot be read is compiled again and replaced', () => {
    const { dir, cache } = project();
    const file = join(dir, 'a.ts');
    const o = opts(file, 'export default 3;');
    const c = countingCompiler();
    cachedTransform(o, c.compile);
    const entry = join(cache, `${entryKey(o)}.js`);
    const whole = readFileSync(entry, 'utf8');
    writeFileSync(entry, whole.slice(0, whole.length - 20));
    expect(cachedTransform(o, c.compile).code).toBe('/* compiled */ export default 3;');
    expect(readFileSync(entry, 'utf8')).toBe(whole);
    // A directory where the entry should be: unreadable, and it cannot be replaced either; the load still works.
    const other = opts(file, 'export default 4;');
    mkdirSync(join(cache, `${entryKey(other)}.js`));
    expect(cachedTransform(other, c.compile).code).toBe('/* compiled */ export default 4;');
    expect(cachedTransform(other, c.compile).code).toBe('/* compiled */ export default 4;');
    expect(c.calls).toEqual(['export default 3;', 'export default 3;', 'export default 4;', 'export default 4;']);
    expect(readdirSync(cache).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  it('a failed compile is not stored', () => {
    const { dir, cache } = project();
    let calls = 0;
    const failing: Transform = () => {
      calls += 1;
      return { code: 'exports.__JITI_ERROR__ = {}', error: new Error('bad syntax') };
    };
    cachedTransform(opts(join(dir, 'a.ts'), 'export default ;'), () => failing);
    cachedTransform(opts(join(dir, 'a.ts'), 'export default ;'), () => failing);
    expect(calls).toBe(2);
    expect(existsSync(cache) ? readdirSync(cache) : []).toEqual([]);
  });
});

/**
 * A fresh process imports a .ts module through the built CLI's loader (dist/) and reports its
 * default export and whether jiti's compiler (babel.cjs) was loaded, from Node's module cache.
 */
function loadInChild(file: string): { value: unknown; compilerLoaded: boolean } {
  const script = `
    import { createRequire } from 'node:module';
    const { importUserModule } = await import(${JSON.stringify(pathToFileURL(join(REPO_ROOT, 'dist/suite/import-module.js')).href)});
    const value = await importUserModule(${JSON.stringify(file)});
    const compilerLoaded = Object.keys(createRequire(import.meta.url).cache).some((k) => k.endsWith('babel.cjs'));
    console.log(JSON.stringify({ value, compilerLoaded }));
  `;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' } });
  expect(r.stderr).toBe('');
  return JSON.parse(r.stdout) as { value: unknown; compilerLoaded: boolean };
}

describe('a TypeScript module loaded by a fresh process (built CLI)', () => {
  it('the first load compiles; a warm load never loads the compiler; a saved change is compiled anew', () => {
    const { dir } = project();
    const dep = join(dir, 'dep.ts');
    const main = join(dir, 'main.ts');
    writeFileSync(dep, 'export const n: number = 1;\n');
    writeFileSync(main, "import { n } from './dep.js';\nconst doubled: number = n * 2;\nexport default { doubled };\n");
    expect(loadInChild(main)).toEqual({ value: { doubled: 2 }, compilerLoaded: true });
    expect(loadInChild(main)).toEqual({ value: { doubled: 2 }, compilerLoaded: false });
    // Same length, other value: the entry is named by the content, not the size or the time.
    writeFileSync(dep, 'export const n: number = 5;\n');
    expect(loadInChild(main)).toEqual({ value: { doubled: 10 }, compilerLoaded: true });
    expect(loadInChild(main)).toEqual({ value: { doubled: 10 }, compilerLoaded: false });
  });
});
