import { existsSync, readFileSync, realpathSync, statSync } from 'node:fs';
import Module, { builtinModules, createRequire } from 'node:module';
import { dirname, extname, isAbsolute, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cacheDirFor, entryKey, readStored, type TransformOptions } from './ts-cache.js';
import { directTsSpecifiers } from './ts-specifiers.js';

/**
 * A warm load of a TypeScript module graph without jiti. jiti's runtime (its 190 KB bundle, with
 * vm, perf_hooks, assert and tty) and its resolver (~150 failed probes a specifier) were most of a
 * warm `list` once the compiler no longer loaded (ts-cache.ts). When every module of the graph is
 * already compiled in the cache and every import in it is one whose meaning under jiti is certain,
 * this does what jiti does with that compiled code, step for step (jiti 2.x `eval_evalModule` and
 * `jitiRequire`): each module runs in jiti's async wrapper under its file name, with a `module`
 * object in `require.cache`, one module cache for the graph, and jiti's `interopDefault` view of
 * what each import returns. Anything else (a module not yet compiled, `require`, `import.meta.resolve`,
 * a dynamic import, a package that is not plain ES modules, a JITI_* setting) is planned BEFORE
 * any code runs, and the whole load then goes through jiti as before.
 *
 * The imports it takes on itself:
 * - a relative `./x.ts` (ts-specifiers.ts names a `.js` specifier so only when the file is certain): jiti
 *   resolves it to the real path of that file and runs its compiled code;
 * - `node:x` and Node's built-in names: jiti imports them natively;
 * - a package (or the project itself, by its own name) whose `exports` give, under jiti's first
 *   conditions (`node`, `import`), one ES module file (.mjs, or .js in a `"type": "module"`
 *   package): jiti imports that file natively (and if that import fails, this import is handed
 *   to jiti, which then compiles the file, as jiti does).
 */

/** What jiti hands the compiler for a module it imports (its `transform()`): the cache entry's name. */
export function jitiCompileOptions(file: string, source: string): TransformOptions {
  return { babel: {}, interopDefault: true, source, filename: file, ts: true, async: true, jsx: false };
}

/** jiti's wrapper: the compiled code is the body of an async function. */
type Wrapper = (exports: unknown, require: unknown, module: Module, filename: string, dirname: string, jitiImport: (id: string) => Promise<unknown>, jitiESMResolve: unknown) => Promise<void>;

type Target = { kind: 'ts'; file: string } | { kind: 'native'; id: string };

/** The same wrapper with each `await jitiImport(id)` made a synchronous call: for a module with no top-level await of its own. */
type SyncWrapper = (exports: unknown, require: unknown, module: Module, filename: string, dirname: string, jitiImportSync: (id: string) => unknown, jitiESMResolve: unknown) => void;

interface Planned {
  file: string;
  /** Compiled on first use: a bounded load (WarmLoad.bounded) runs `runSync` only. */
  run: () => Wrapper;
  runSync: SyncWrapper | undefined;
  targets: Map<string, Target>;
}

/** Imports jiti would make (a static `import` compiles to `await jitiImport("...")`). */
const STATIC_IMPORT = /jitiImport\("((?:[^"\\\n]|\\.)*)"\)/g;
const TS_FILE = /\.(c|m)?ts$/;
const RELATIVE_TS = /^\.{1,2}\/[\w\-./@]+\.(c|m)?ts$/;
const PACKAGE = /^((?:@[\w\-.]+\/)?[\w\-.]+)((?:\/[\w\-.@]+)*)$/;
const JITI_EXTENSIONS = ['.js', '.mjs', '.cjs', '.ts', '.tsx', '.mts', '.cts', '.mtsx', '.ctsx'];

/** Hands one import to jiti, as from the module `parent` (used when a native import fails). */
export type JitiImport = (parent: string, id: string) => Promise<unknown>;

/** A planned graph: `run(limitMs)` runs it and answers jiti.import(file, { default: true }). */
export interface WarmLoad {
  run(limitMs: number): Promise<unknown>;
  /**
   * The graph's code runs in one synchronous call that V8 stops at `limitMs` (node:vm's `timeout`, a
   * native timer thread): a loop that never ends is cut off without the load watchdog's worker
   * thread. True when no module has a top-level `await` of its own and every native import is a
   * built-in or a file of this package (run before the graph's code: they have no side effects it
   * could see). Such a stop throws a ScriptTimeoutError.
   */
  bounded: boolean;
}

/** A bounded warm load (WarmLoad.bounded) ran past its limit, and V8 stopped its code. */
export class ScriptTimeoutError extends Error {}

/**
 * The graph of `file`, planned and compiled, ready to run; undefined when any part of it needs jiti.
 * Nothing of the user's code runs here.
 */
export function planWarmLoad(file: string, viaJiti: JitiImport): WarmLoad | undefined {
  if (!isAbsolute(file) || Object.keys(process.env).some((k) => k.startsWith('JITI_'))) return undefined;
  const graph = new Map<string, Planned>();
  try {
    if (!planModule(file, graph)) return undefined;
  } catch {
    return undefined; // a wrapper that does not compile: jiti has its own way with it
  }
  const bounded = [...graph.values()].every((p) => p.runSync !== undefined && [...p.targets.values()].every((t) => t.kind === 'ts' || isBuiltin(t.id) || t.id.startsWith(OWN_DIST)));
  return {
    bounded,
    run: async (limitMs) => {
      const top = require.cache[file];
      if (top?.loaded) return defaultOf(interopDefault(top.exports));
      if (!bounded) return defaultOf(await runModule(file, graph, new Map(), undefined, viaJiti));
      const started = Date.now();
      const natives = new Map<string, unknown>();
      for (const p of graph.values()) for (const t of p.targets.values()) if (t.kind === 'native' && !natives.has(t.id)) natives.set(t.id, await import(t.id));
      const left = Math.max(1, Math.ceil(limitMs - (Date.now() - started)));
      // Date.now(), not performance: the global loads perf_hooks.
      return defaultOf(runBounded(() => runModuleSync(file, graph, new Map(), undefined, natives), left));
    },
  };
}

/** This package's built files (dist/: this module is in dist/suite/ or dist/chunks/, or src/suite/ under the tests): ours, imported natively. */
const OWN_DIST = fileURLToPath(new URL('../', import.meta.url)).replace(/\/src\/$/, '/dist/');

function isBuiltin(id: string): boolean {
  return id.startsWith('node:') || builtinModules.includes(id);
}

const RUN_KEY = Symbol.for('agent-evals.warm-load.run');
let boundedCall: import('node:vm').Script | undefined;

/**
 * Whether Node was started to take a debugger (`--inspect`, `--inspect-brk`, `--inspect-wait`): one
 * may hold the module paused at a breakpoint on purpose, and V8's timer counts that time. The load
 * is then not stopped, as the watchdog stays off while the inspector is in use (load-watchdog.ts).
 */
function debuggable(): boolean {
  return [...process.execArgv, ...(process.env.NODE_OPTIONS ?? '').split(/\s+/)].some((a) => /^--inspect(-brk|-wait)?(=|$)/.test(a));
}

/** `run()` in one synchronous call that V8 stops after `ms` (node:vm's `timeout`: no worker thread). */
function runBounded<T>(run: () => T, ms: number): T {
  if (debuggable()) return run();
  const vm = require('node:vm') as typeof import('node:vm');
  boundedCall ??= new vm.Script(`globalThis[Symbol.for('agent-evals.warm-load.run')]()`, { filename: 'agent-evals:warm-load' });
  const slot = globalThis as unknown as Record<symbol, unknown>;
  const outer = slot[RUN_KEY];
  slot[RUN_KEY] = run;
  const started = Date.now();
  try {
    return boundedCall.runInThisContext({ timeout: ms, displayErrors: false }) as T;
  } catch (err) {
    // This call's own limit (not a vm timeout of the user's code, which ends sooner and is theirs).
    if ((err as { code?: unknown } | null)?.code === 'ERR_SCRIPT_EXECUTION_TIMEOUT' && Date.now() - started >= ms) throw new ScriptTimeoutError(`module code stopped after ${ms} ms`);
    throw err;
  } finally {
    slot[RUN_KEY] = outer;
  }
}

const require = createRequire(import.meta.url);

/** jiti.import(file, { default: true }). */
function defaultOf(mod: unknown): unknown {
  return (mod as { default?: unknown } | undefined)?.default ?? mod;
}

function planModule(file: string, graph: Map<string, Planned>): boolean {
  if (graph.has(file)) return true;
  if (file.includes('/node_modules/') || !TS_FILE.test(file)) return false;
  const dir = cacheDirFor(file);
  let source: string;
  try {
    source = readFileSync(file, 'utf8');
  } catch {
    return false;
  }
  const stored = dir ? readStored(dir, entryKey(jitiCompileOptions(file, source))) : undefined;
  if (stored === undefined) return false;
  const code = directTsSpecifiers(stored, file);
  // What only jiti's own runtime can answer: its `require`, import.meta.resolve, dynamic imports.
  if (/\brequire\b|jitiESMResolve/.test(code)) return false;
  const ids = [...code.matchAll(STATIC_IMPORT)].map((m) => JSON.parse(`"${m[1]}"`) as string);
  if (ids.length !== code.split('jitiImport').length - 1) return false;
  const targets = new Map<string, Target>();
  for (const id of ids) {
    const target = targetOf(id, file);
    if (!target) return false;
    targets.set(id, target);
  }
  // node:vm only when a graph is planned: jiti runs the same wrapper the same way.
  const vm = require('node:vm') as typeof import('node:vm');
  const compile = <W>(head: string, body: string): W =>
    vm.runInThisContext(`${head} (exports, require, module, __filename, __dirname, jitiImport, jitiESMResolve) { ${body}\n});`, { filename: file, lineOffset: 0, displayErrors: false }) as W;
  const runSync = syncWrapper(code, (body) => compile<SyncWrapper>('(function', body));
  let run: Wrapper | undefined;
  graph.set(file, { file, run: () => (run ??= compile<Wrapper>('(async function', code)), runSync, targets });
  // A wrapper that does not compile throws now, while planning, as before.
  if (!runSync) graph.get(file)!.run();
  for (const t of targets.values()) if (t.kind === 'ts' && !planModule(t.file, graph)) return false;
  return true;
}

/** What jiti would do with `import id` in `parent`, when that is certain. */
function targetOf(id: string, parent: string): Target | undefined {
  if (id.startsWith('node:') || builtinModules.includes(id)) return { kind: 'native', id };
  if (RELATIVE_TS.test(id)) {
    const path = resolve(dirname(parent), id);
    return isFile(path) ? { kind: 'ts', file: realpathSync(path) } : undefined;
  }
  const m = PACKAGE.exec(id);
  if (!m || id.startsWith('.')) return undefined;
  const path = packageFile(m[1]!, `.${m[2] ?? ''}`, dirname(parent));
  if (!path || require.cache[path]) return undefined;
  const ext = extname(path);
  // Not among jiti's extensions: imported natively. .mjs, .cjs, and .js of an ES module package: the same.
  const native = (ext !== '' && !JITI_EXTENSIONS.includes(ext)) || ext === '.mjs' || ext === '.cjs' || (ext === '.js' && nearestPackageType(path) === 'module');
  return native && ext !== '.json' ? { kind: 'native', id: path } : undefined;
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** The file a package specifier names: the project itself by its own name first, then node_modules up the tree (Node's ESM resolver). */
function packageFile(name: string, subpath: string, from: string): string | undefined {
  const scope = packageScope(from);
  if (scope && scope.json.name === name && scope.json.exports !== undefined && scope.json.exports !== null) return exportedFile(scope.dir, scope.json.exports, subpath);
  for (let dir = from; ;) {
    const pkgDir = join(dir, 'node_modules', name);
    if (isDirectory(pkgDir)) {
      // No package.json or no "exports": the resolver tries main, index and extensions; left to jiti.
      const json = existsSync(join(pkgDir, 'package.json')) ? readJson(join(pkgDir, 'package.json')) : undefined;
      return json?.exports === undefined || json.exports === null ? undefined : exportedFile(pkgDir, json.exports, subpath);
    }
    const up = dirname(dir);
    if (up === dir) return undefined;
    dir = up;
  }
}

interface PackageJson {
  name?: unknown;
  type?: unknown;
  exports?: unknown;
}

/** A package.json; one that cannot be read or parsed throws (the plan is then dropped: an error is jiti's to report). */
function readJson(path: string): PackageJson {
  const json = JSON.parse(readFileSync(path, 'utf8')) as unknown;
  if (!json || typeof json !== 'object') throw new Error(`${path}: not an object`);
  return json;
}

/** The nearest package.json at or above `dir` (stopping at a node_modules folder, as Node does). */
function packageScope(dir: string): { dir: string; json: PackageJson } | undefined {
  for (let d = dir; ;) {
    if (d.endsWith('/node_modules')) return undefined;
    if (existsSync(join(d, 'package.json'))) return { dir: d, json: readJson(join(d, 'package.json')) };
    const up = dirname(d);
    if (up === d) return undefined;
    d = up;
  }
}

/** jiti's own test of whether a `.js` file is an ES module: the `type` of the first package.json above it. */
function nearestPackageType(file: string): unknown {
  for (let d = dirname(file); d && d !== '.' && d !== '/'; d = dirname(d)) {
    let text: string;
    try {
      text = readFileSync(join(d, 'package.json'), 'utf8');
    } catch {
      continue;
    }
    try {
      return (JSON.parse(text) as PackageJson).type;
    } catch {
      return undefined;
    }
  }
  return undefined;
}

/** `exports` resolved for `subpath` under the conditions `node`, `import`, `default`: only plain targets (no patterns, no arrays). */
function exportedFile(pkgDir: string, exports: unknown, subpath: string): string | undefined {
  let target: unknown = exports;
  if (exports && typeof exports === 'object' && !Array.isArray(exports)) {
    const keys = Object.keys(exports);
    const subpaths = keys.filter((k) => k.startsWith('.'));
    if (subpaths.length > 0 && subpaths.length !== keys.length) return undefined;
    if (subpaths.length > 0) {
      // Node takes an exact key first; patterns ("./x/*") only when none matches: those are left to jiti.
      if (subpath.includes('*') || !Object.hasOwn(exports, subpath)) return undefined;
      target = (exports as Record<string, unknown>)[subpath];
    } else if (subpath !== '.') return undefined;
  } else if (subpath !== '.') return undefined;
  const file = conditionalTarget(target);
  // Node refuses targets outside the package or through node_modules; those errors are jiti's to report.
  if (
    !file?.startsWith('./') ||
    file
      .slice(2)
      .split('/')
      .some((s) => s === '' || s === '.' || s === '..' || s.toLowerCase() === 'node_modules')
  )
    return undefined;
  const path = join(pkgDir, file);
  return isFile(path) ? realpathSync(path) : undefined;
}

function conditionalTarget(target: unknown): string | undefined {
  if (typeof target === 'string') return target;
  if (!target || typeof target !== 'object' || Array.isArray(target)) return undefined;
  for (const [key, value] of Object.entries(target)) {
    if (key === 'node' || key === 'import' || key === 'default') {
      const found = conditionalTarget(value);
      // A condition that matches but leads nowhere: Node goes on to the next key; a null would stop it. Left to jiti.
      return found;
    }
  }
  return undefined;
}

/** The `module` object jiti makes for a compiled module, with its `require`. */
function moduleFor(file: string, parent: Module | undefined): Module {
  const mod = new Module(file);
  mod.filename = file;
  if (parent) {
    mod.parent = parent;
    if (Array.isArray(parent.children) && !parent.children.includes(mod)) parent.children.push(mod);
  }
  mod.require = createRequire(file);
  mod.path = dirname(file);
  mod.paths = (Module as unknown as { _nodeModulePaths(dir: string): string[] })._nodeModulePaths(mod.path);
  return mod;
}

/** A module about to run: the graph's cache and require.cache hold it while it runs, as jiti's do. */
function entered(file: string, parent: Module | undefined, cache: Map<string, Module>): Module {
  const mod = moduleFor(file, parent);
  cache.set(file, mod);
  require.cache[file] = mod;
  return mod;
}

/** A module of the graph that has run or is running (an import cycle), whose exports an import gets as they are. */
function ranBefore(file: string, cache: Map<string, Module>): Module | undefined {
  const loaded = require.cache[file];
  return cache.get(file) ?? (loaded?.loaded ? loaded : undefined);
}

/** jiti's eval_evalModule for a compiled module (async mode). */
async function runModule(file: string, graph: Map<string, Planned>, cache: Map<string, Module>, parent: Module | undefined, viaJiti: JitiImport): Promise<unknown> {
  const planned = graph.get(file)!;
  const mod = entered(file, parent, cache);
  const modRequire = mod.require as unknown as NodeJS.Require;
  const jitiImport = async (id: string): Promise<unknown> => {
    const target = planned.targets.get(id);
    if (!target) return await viaJiti(file, id); // planned imports only; kept for safety
    if (target.kind === 'native') {
      if (target.id.startsWith('node:') || builtinModules.includes(target.id)) return interopDefault(await import(target.id));
      // jiti compiles a file whose native import failed and runs that instead: it does so here too.
      return await import(target.id).then(interopDefault, () => viaJiti(file, id));
    }
    const known = ranBefore(target.file, cache);
    return known ? interopDefault(known.exports) : await runModule(target.file, graph, cache, mod, viaJiti);
  };
  await planned.run()(mod.exports, modRequire, mod, file, dirname(file), jitiImport, undefined);
  mod.loaded = true;
  return interopDefault(mod.exports);
}

/**
 * The wrapper without awaits: each `await jitiImport(id)` becomes `jitiImport(id)`, answered at once.
 * Undefined when an import is not awaited where it stands, or when the code has an `await` of its own
 * at top level: V8 then refuses the body of a plain function (a SyntaxError), and jiti's async
 * wrapper is the one that runs.
 */
function syncWrapper(code: string, compile: (body: string) => SyncWrapper): SyncWrapper | undefined {
  const imports = code.split('jitiImport(').length - 1;
  const body = code.replace(AWAITED_IMPORT, 'jitiImport(');
  if (code.split(AWAITED_IMPORT).length - 1 !== imports) return undefined;
  try {
    return compile(body);
  } catch {
    return undefined;
  }
}

const AWAITED_IMPORT = /\bawait jitiImport\(/g;

/** runModule, synchronously: each import answered from the graph, the module cache or `natives` (loaded before). */
function runModuleSync(file: string, graph: Map<string, Planned>, cache: Map<string, Module>, parent: Module | undefined, natives: Map<string, unknown>): unknown {
  const planned = graph.get(file)!;
  const mod = entered(file, parent, cache);
  const modRequire = mod.require as unknown as NodeJS.Require;
  const jitiImport = (id: string): unknown => {
    const target = planned.targets.get(id)!;
    if (target.kind === 'native') return interopDefault(natives.get(target.id));
    const known = ranBefore(target.file, cache);
    return known ? interopDefault(known.exports) : runModuleSync(target.file, graph, cache, mod, natives);
  };
  planned.runSync!(mod.exports, modRequire, mod, file, dirname(file), jitiImport, undefined);
  mod.loaded = true;
  return interopDefault(mod.exports);
}

/** jiti's `interopDefault` view of a module (jiti 2.x `jitiInteropDefault`), unchanged. */
function interopDefault(mod: unknown): unknown {
  const kind = typeof mod;
  if (mod === null || (kind !== 'object' && kind !== 'function')) return mod;
  const m = mod as Record<PropertyKey, unknown>;
  const def = m.default;
  const defKind = typeof def;
  const noDefault = def === null || def === undefined;
  const defObject = defKind === 'object' || defKind === 'function';
  if (noDefault && mod instanceof Promise) return mod;
  const callable = defKind === 'function' && kind !== 'function';
  const spread = defObject && !(def instanceof Promise);
  const seen = new Map<PropertyKey, unknown>();
  return new Proxy(m, {
    get(target, key) {
      if (seen.has(key)) return seen.get(key);
      let value: unknown;
      if (key === '__esModule') value = true;
      else if (key === 'default') value = noDefault ? mod : typeof (def as { default?: unknown } | undefined)?.default === 'function' && m.__esModule ? (def as { default: unknown }).default : def;
      else if (key in target) value = target[key];
      else if (spread) {
        value = (def as Record<PropertyKey, unknown>)[key];
        if (typeof value === 'function') value = (value as (...a: unknown[]) => unknown).bind(def);
      }
      seen.set(key, value);
      return value;
    },
    apply: callable ? (_, self, args: unknown[]) => Reflect.apply(def as (...a: unknown[]) => unknown, self, args) : undefined,
  });
}
