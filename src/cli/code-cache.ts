import type * as Crypto from 'node:crypto';
import type * as Fs from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import vm from 'node:vm';
import type * as WorkerThreads from 'node:worker_threads';
import { cacheDirFor } from '../suite/cache-files.js';
import { requireBuiltin } from '../core/builtin-require.js';
import { appliedHeapFlags } from './heap-growth.js';

// Required, not imported: this module loads before the start chunk (core/builtin-require.ts says why).
const { createHash, randomBytes } = requireBuiltin('node:crypto') as typeof Crypto;
const { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } = requireBuiltin('node:fs') as typeof Fs;
/** Only a cache that is to be written asks: a warm start loads no worker_threads. */
const isMainThread = () => (requireBuiltin('node:worker_threads') as typeof WorkerThreads).isMainThread;

/**
 * The start chunk of dist/ (what every command loads, ~640 KB: the CLI, zod, commander, the suite
 * loader), and the chunks `run` loads before its first request, run as scripts with a V8 code
 * cache. Node 20 keeps no compiled code of ES modules between runs (`module.enableCompileCache`
 * came in 22.1; `vm.SourceTextModule`, which takes one, needs a flag), so each start-up compiled the
 * chunk anew (~40 ms) and every function it called on first use; `vm.Script` takes and makes a
 * code cache without a flag. With it a warm `list` of the example suite samples ~22% less CPU
 * (217 -> 169 ms, the least disturbed of 9 alternated profiles each, 2026-12-02).
 * scripts/cached-script.mjs builds each such chunk as a CommonJS file and puts in its
 * place a small ES module that loads it here and exports what the chunk exported, so every importer
 * (the CLI, the public entry, the other chunks) shares one instance.
 *
 * Our own ~60 lines, not a package: `v8-compile-cache` hooks Node's `require` of CommonJS files,
 * and the chunk is loaded by an ES module; what is needed is one script, its cache file and checks.
 *
 * The cache: `node_modules/.cache/agent-evals/code/` (cache-files.ts' place), one file per built
 * chunk (its name carries rolldown's content hash), Node version and V8 flags, written whole (temp +
 * rename) when the process ends, only after a run that found none or had it rejected, and holding
 * the functions that run compiled (V8 adds lazily compiled ones); the newest few of each chunk are
 * kept. V8 rejects a cache of another V8 or other flags (then it is rewritten) but checks no
 * checksum of the code itself, so the file starts with a SHA-1 of the rest: a damaged file is not
 * handed to V8 at all, and is rewritten.
 */

/** What `import()` in the chunk becomes (the build rewrites it): an import as from the chunk's own folder. */
export type ChunkImport = (specifier: string) => Promise<unknown>;

const DIGEST = 20; // SHA-1
const LOADED = Symbol.for('agent-evals.cached-scripts');

/**
 * The chunks this copy of the module ran, by file. Per copy, not per thread: a copy made by another
 * loader (jiti compiling the public entry) runs its own, whose `import()` is that loader's. Shared,
 * the first loader's would serve every copy: user modules imported through jiti (or a test runner's
 * transform) get other function text than Node's own import gives, and an isolated target's worker,
 * which imports with Node's, then finds "another" function. The CLI's own copy is Node's (bin loads it).
 */
const ran = new Map<string, Record<string, unknown>>();

/**
 * The CommonJS module `url` names (a file:// URL), run with its code cache; its `module.exports`.
 * `chunks`: the namespaces of the other chunks it imports, by the specifier it requires them with
 * (its ES module imported them: scripts/cached-script.mjs).
 * Loaded once per copy of this module: Node's ES module cache gives the CLI, the public entry a config
 * imports and the run chunks one copy. Every run is also listed in a registry on globalThis
 * (`agent-evals.cached-scripts`), which the start-up tests read.
 */
export function loadCachedScript(url: URL, chunkImport: ChunkImport, chunks: Readonly<Record<string, unknown>> = {}): Record<string, unknown> {
  const loaded = ((globalThis as Record<symbol, unknown>)[LOADED] ??= new Map()) as Map<string, Record<string, unknown>>;
  const file = fileURLToPath(url);
  const done = ran.get(file);
  if (done !== undefined) return done;

  const cacheFile = cachePath(file);
  const cachedData = cacheFile === undefined ? undefined : readCache(cacheFile);
  // Node's CommonJS wrapper, with strict mode (the chunk was an ES module) and the chunk's import().
  const source = `(function (exports, require, module, __filename, __dirname, __import) {"use strict";${readFileSync(file, 'utf8')}\n})`;
  const script = new vm.Script(source, { filename: file, cachedData });
  // Written once the command is done (off the timed path), so it holds what the command compiled;
  // by the main thread only: workers would race it to write the same file.
  if (cacheFile !== undefined && (cachedData === undefined || script.cachedDataRejected === true) && isMainThread()) process.once('exit', () => writeCache(cacheFile, script));

  const module = { exports: {} as Record<string, unknown> };
  const wrapper = script.runInThisContext() as (...args: unknown[]) => void;
  wrapper.call(module.exports, module.exports, chunkRequire(createRequire(file), chunks), module, file, dirname(file), chunkImport);
  ran.set(file, module.exports);
  loaded.set(file, module.exports);
  return module.exports;
}

/**
 * The script's `require`: the namespace its ES module imported for another chunk (by the specifier
 * the script requires it with), Node's own for the rest (built-ins).
 */
function chunkRequire(nodeRequire: NodeJS.Require, chunks: Readonly<Record<string, unknown>>): NodeJS.Require {
  if (Object.keys(chunks).length === 0) return nodeRequire;
  return Object.assign((id: string): unknown => (Object.hasOwn(chunks, id) ? chunks[id] : nodeRequire(id)), nodeRequire);
}

/**
 * The cache file of a built script for this Node, platform and the V8 flags the CLI sets; undefined
 * when no cache folder is usable. V8 takes a cache only under the flags it was made under, and the
 * CLI sets some (heap-growth.ts) that a library use (a test importing agent-evals) does not: one file
 * each, or the two would reject and rewrite each other's. Not keyed by Node's own options
 * (`--cpu-prof-dir=...` differs each run); one that is a V8 flag only costs a rewrite when it changes.
 */
function cachePath(file: string): string | undefined {
  const dir = cacheDirFor(file, 'code');
  if (dir === undefined) return undefined;
  const flags = appliedHeapFlags().length === 0 ? 'lib' : createHash('sha1').update(appliedHeapFlags().join(' ')).digest('hex').slice(0, 10);
  return join(dir, `${basename(file)}-${process.version}-${process.platform}-${process.arch}-${flags}.bin`);
}

/** The cache's V8 data, or undefined when there is none or its digest does not match it. */
function readCache(path: string): Buffer | undefined {
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch {
    return undefined;
  }
  const data = bytes.subarray(DIGEST);
  return bytes.length > DIGEST && createHash('sha1').update(data).digest().equals(bytes.subarray(0, DIGEST)) ? data : undefined;
}

/** Writes the script's code cache whole or not at all; a cache that cannot be written only costs the next start-up. */
function writeCache(path: string, script: vm.Script): void {
  const temp = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    const data = script.createCachedData();
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(temp, Buffer.concat([createHash('sha1').update(data).digest(), data]), { mode: 0o600 });
    renameSync(temp, path);
    pruneOld(dirname(path));
  } catch {
    rmSync(temp, { force: true });
  }
}

/** Caches kept per chunk: each build names its own (up to ~0.6 MB each), so those of older builds are removed, newest kept. */
const KEPT_CACHES = 6;

/** The chunk a cache file is of, without its build's hash: `run` for `run-BB3rU78z.cjs-v20…bin` (rolldown's hashes are 8 characters). */
function chunkOf(cacheFile: string): string {
  const script = cacheFile.slice(0, cacheFile.indexOf('.cjs-'));
  return script.length > 9 && script[script.length - 9] === '-' ? script.slice(0, -9) : script;
}

/** Removes all but the `KEPT_CACHES` most recently written cache files of each chunk in the folder. */
function pruneOld(dir: string): void {
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.bin'))
    .map((f) => ({ path: join(dir, f), chunk: chunkOf(f), written: statSync(join(dir, f)).mtimeMs }))
    .sort((a, b) => b.written - a.written);
  const kept = new Map<string, number>();
  for (const f of files) {
    const n = (kept.get(f.chunk) ?? 0) + 1;
    kept.set(f.chunk, n);
    if (n > KEPT_CACHES) rmSync(f.path, { force: true });
  }
}
