/**
 * A warm TypeScript load without jiti (src/suite/ts-warm-load.ts): once a module graph is compiled
 * in the cache, a fresh process runs it without loading jiti, and what the load gives (values,
 * default-export views, module identity, errors with their line) is what jiti gave on the first
 * load. A graph with anything only jiti can answer still loads through jiti, with the same result.
 * Each load is a fresh process running the built loader (dist/), as the CLI does.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO_ROOT, removeTempDirs, tempDir } from '../support/cli.js';

afterAll(removeTempDirs);

interface ChildLoad {
  value?: unknown;
  error?: string;
  jitiLoaded: boolean;
}

/** Loads `file` with importUserModule in a fresh process; the value is passed through `report` (module source) to JSON. */
function loadInChild(file: string, report = 'value'): ChildLoad {
  const script = `
    import { createRequire } from 'node:module';
    const { importUserModule } = await import(${JSON.stringify(pathToFileURL(join(REPO_ROOT, 'dist/suite/import-module.js')).href)});
    const jitiLoaded = () => Object.keys(createRequire(import.meta.url).cache).some((k) => k.includes('/node_modules/jiti/'));
    try {
      const value = await importUserModule(${JSON.stringify(file)});
      console.log(JSON.stringify({ value: await (async (value) => ${report})(value), jitiLoaded: jitiLoaded() }));
    } catch (err) {
      console.log(JSON.stringify({ error: err.message + ' @' + err.line, jitiLoaded: jitiLoaded() }));
    }
  `;
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('JITI_')));
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', env: { ...env, NODE_OPTIONS: '' } });
  expect(r.stderr).toBe('');
  return JSON.parse(r.stdout) as ChildLoad;
}

/** A project with its own node_modules (its own cache) holding an ES module package and a CommonJS one without "exports". */
function project(): string {
  const dir = tempDir('agent-evals-warm-');
  const esm = join(dir, 'node_modules', 'esm-pkg');
  mkdirSync(join(esm, 'lib'), { recursive: true });
  writeFileSync(
    join(esm, 'package.json'),
    JSON.stringify({ name: 'esm-pkg', type: 'module', exports: { '.': { import: './lib/index.js', require: './lib/index.cjs' }, './extra': './lib/extra.js' } }),
  );
  writeFileSync(join(esm, 'lib', 'index.js'), "export const greet = (n) => `hi ${n}`;\nexport default function twice(x) { return 2 * x; }\nexport const loadedAt = Symbol('one instance');\n");
  writeFileSync(join(esm, 'lib', 'extra.js'), 'export const extra = 42;\n');
  const cjs = join(dir, 'node_modules', 'cjs-pkg');
  mkdirSync(cjs, { recursive: true });
  writeFileSync(join(cjs, 'package.json'), JSON.stringify({ name: 'cjs-pkg', main: 'main.js' }));
  writeFileSync(join(cjs, 'main.js'), 'module.exports = { kind: "cjs" };\n');
  return dir;
}

describe('a warm TypeScript load runs without jiti, with the result jiti gave', () => {
  it('relative .ts imports (a cycle included), node: built-ins, a package by its exports and a subpath, default-export views', () => {
    const dir = project();
    writeFileSync(
      join(dir, 'util.ts'),
      "import { basename } from 'node:path';\nimport { main } from './main.js';\nexport const name = (p: string): string => basename(p);\nexport const seenMain = (): string => typeof main;\nexport default 'util-default';\n",
    );
    writeFileSync(
      join(dir, 'main.ts'),
      [
        "import twice, { greet } from 'esm-pkg';",
        "import { extra } from 'esm-pkg/extra';",
        "import * as esm from 'esm-pkg';",
        "import util, { name, seenMain } from './util.js';",
        "import * as utilNs from './util.js';",
        'export const main = 1;',
        'export default {',
        "  greet: greet('x'), twice: twice(4), extra, util, file: name('/a/b.ts'), seenMain: seenMain(),",
        '  esmKeys: Object.keys(esm).sort(), nsDefault: utilNs.default, esModule: (utilNs as { __esModule?: boolean }).__esModule,',
        '};',
        '',
      ].join('\n'),
    );
    const file = join(dir, 'main.ts');
    const cold = loadInChild(file);
    expect(cold.jitiLoaded).toBe(true);
    expect(cold.value).toEqual({
      greet: 'hi x',
      twice: 8,
      extra: 42,
      util: 'util-default',
      file: 'b.ts',
      seenMain: 'number',
      esmKeys: ['default', 'greet', 'loadedAt'],
      nsDefault: 'util-default',
      esModule: true,
    });
    const warm = loadInChild(file);
    expect(warm).toEqual({ ...cold, jitiLoaded: false });
  });

  it('a module that throws while loading: the same error and line, warm or cold; a module that loads a package natively shares its one instance', () => {
    const dir = project();
    writeFileSync(join(dir, 'bad.ts'), "import { greet } from 'esm-pkg';\nconst n: number = 1;\n\nif (n) throw new Error(greet('trouble'));\nexport default n;\n");
    const cold = loadInChild(join(dir, 'bad.ts'));
    expect(cold).toMatchObject({ error: expect.stringContaining('hi trouble') as unknown, jitiLoaded: true });
    expect(cold.error).toMatch(/@4$/);
    expect(loadInChild(join(dir, 'bad.ts'))).toEqual({ ...cold, jitiLoaded: false });

    writeFileSync(join(dir, 'same.ts'), "import { loadedAt } from 'esm-pkg';\nexport default loadedAt;\n");
    const report = `value === (await import(${JSON.stringify(pathToFileURL(join(dir, 'node_modules/esm-pkg/lib/index.js')).href)})).loadedAt`;
    expect(loadInChild(join(dir, 'same.ts'), report)).toEqual({ value: true, jitiLoaded: true });
    expect(loadInChild(join(dir, 'same.ts'), report)).toEqual({ value: true, jitiLoaded: false });
  });

  it('what only jiti can answer (a package without "exports", `require`, a dynamic import) loads through jiti, warm too, with the same result', () => {
    const dir = project();
    const cases: Record<string, string> = {
      'no-exports.ts': "import pkg from 'cjs-pkg';\nexport default pkg.kind;\n",
      'uses-require.ts': "const { kind } = require('cjs-pkg');\nexport default kind;\n",
      'dynamic.ts': "export default (await import('./dep.js')).value;\n",
    };
    writeFileSync(join(dir, 'dep.ts'), "export const value = 'cjs';\n");
    for (const [name, source] of Object.entries(cases)) {
      writeFileSync(join(dir, name), source);
      expect(loadInChild(join(dir, name))).toEqual({ value: 'cjs', jitiLoaded: true });
      expect(loadInChild(join(dir, name))).toEqual({ value: 'cjs', jitiLoaded: true });
    }
  });

  it('a warm graph runs in one call V8 can stop (no watchdog thread) unless it has a top-level await of its own or imports a package natively: those keep the async wrapper, with the same result', () => {
    const dir = project();
    const cases: Record<string, [source: string, bounded: boolean, value: unknown]> = {
      'plain.ts': ["import { join } from 'node:path';\nimport { value } from './dep.js';\nexport default join(value, 'x');\n", true, 'cjs/x'],
      'nested-await.ts': ["import { value } from './dep.js';\nconst later = async () => await Promise.resolve(value);\nexport default typeof later;\n", true, 'function'],
      'top-level-await.ts': ["import { value } from './dep.js';\nconst v = await Promise.resolve(value);\nexport default v;\n", false, 'cjs'],
      'package.ts': ["import { greet } from 'esm-pkg';\nexport default greet('x');\n", false, 'hi x'],
    };
    writeFileSync(join(dir, 'dep.ts'), "export const value = 'cjs';\n");
    const ts = pathToFileURL(join(REPO_ROOT, 'dist/suite/ts-warm-load.js')).href;
    for (const [name, [source, bounded, value]] of Object.entries(cases)) {
      writeFileSync(join(dir, name), source);
      expect(loadInChild(join(dir, name))).toEqual({ value, jitiLoaded: true });
      const plan = `(await import(${JSON.stringify(ts)})).planWarmLoad(${JSON.stringify(join(dir, name))}, () => undefined)?.bounded`;
      expect(loadInChild(join(dir, name), `[value, ${plan}]`), name).toEqual({ value: [value, bounded], jitiLoaded: false });
    }
  });

  it('a bounded warm load is stopped at its limit, but not when Node takes a debugger (--inspect), which may hold it paused on purpose', () => {
    const dir = project();
    // Busy for 1.5 s by the clock, then done: over a 300 ms limit however fast the machine is.
    const file = join(dir, 'slow.ts');
    writeFileSync(file, "const until: number = Date.now() + 1500;\nwhile (Date.now() < until);\nexport default 'done';\n");
    expect(loadInChild(file)).toEqual({ value: 'done', jitiLoaded: true });
    const script = `
      const { importUserModule } = await import(${JSON.stringify(pathToFileURL(join(REPO_ROOT, 'dist/suite/import-module.js')).href)});
      console.log(await importUserModule(${JSON.stringify(file)}, 'slow.ts', 300).catch((e) => e.message));
    `;
    const run = (execArgv: string[]) => spawnSync(process.execPath, [...execArgv, '--input-type=module', '-e', script], { encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' } }).stdout.trim();
    expect(run([])).toMatch(/^slow\.ts: cannot load: the module did not finish loading within 300 ms \(its code was still running/);
    expect(run(['--inspect=127.0.0.1:0'])).toBe('done');
  });
});
