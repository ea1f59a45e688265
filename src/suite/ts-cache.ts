import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { TransformOptions, TransformResult } from 'jiti';
import { directTsSpecifiers } from './ts-specifiers.js';
import { cacheDirFor as cacheDirOf, readEntry, writeEntry, type CacheKind } from './cache-files.js';

/**
 * TypeScript config and eval modules, compiled once and kept on disk. jiti's compiler (babel,
 * ~1.5 MB of code) and the compile itself were most of a `list`'s start-up; a warm load reads the
 * compiled text and never loads the compiler. An entry is named by a hash of the source, the file,
 * the compile options and the compiler's version, so a changed source is a new entry and never a
 * stale module. Entries are written whole (cache-files.ts), and an entry that cannot be read, or
 * lacks its closing stamp, is compiled anew.
 */

/** What jiti hands its `transform` option, and what it takes back (types only: nothing of jiti loads here). */
export type { TransformOptions, TransformResult } from 'jiti';
export type Transform = (opts: TransformOptions) => TransformResult;

/** Bumped when what is stored, or how it is named, changes. */
const FORMAT = 1;

const require = createRequire(import.meta.url);
let compilerVersion: string | undefined;
let babel: Transform | undefined;

/** jiti's version: its compiler's output changes with it, so it is part of every entry's name. */
function jitiVersion(): string {
  compilerVersion ??= (JSON.parse(readFileSync(require.resolve('jiti/package.json'), 'utf8')) as { version: string }).version;
  return compilerVersion;
}

/** jiti's own compiler, loaded on the first cache miss (jiti's package does the same, lazily). */
export function compiler(): Transform {
  babel ??= createRequire(require.resolve('jiti'))('../dist/babel.cjs') as Transform;
  return babel;
}

/** Whether jiti's compiler has been loaded in this process (tests: a warm load must not). */
export function compilerLoaded(): boolean {
  return babel !== undefined;
}

/** The name of the entry for one compile. */
export function entryKey(opts: TransformOptions): string {
  const { source, ...rest } = opts;
  const options = JSON.stringify([FORMAT, jitiVersion(), rest.filename, rest.ts, rest.async, rest.jsx, rest.interopDefault, rest.retainLines, rest.babel]);
  return createHash('sha256').update(options).update('\0').update(source).digest('hex').slice(0, 40);
}

const TS: CacheKind = { folder: 'ts', ext: '.js', stamp: 'ts-cache' };

/** Where a module's entries live: `node_modules/.cache/agent-evals/ts` (cache-files.ts). */
export function cacheDirFor(file: string): string | undefined {
  return cacheDirOf(file, TS.folder);
}

/** The stored compile named `key` in `dir`, or undefined (absent, unreadable or torn). */
export function readStored(dir: string, key: string): string | undefined {
  return readEntry(TS, dir, key);
}

/** Whether `source` of `file`, compiled with `opts`, is already stored (the compiler then need not load). */
export function isCached(opts: TransformOptions): boolean {
  const dir = opts.filename ? cacheDirFor(opts.filename) : undefined;
  return dir !== undefined && readEntry(TS, dir, entryKey(opts)) !== undefined;
}

/** jiti's `transform` option: a stored entry when there is one, else a compile that is stored. */
export function cachedTransform(opts: TransformOptions, compile: () => Transform = compiler): TransformResult {
  const dir = opts.filename ? cacheDirFor(opts.filename) : undefined;
  const key = dir ? entryKey(opts) : '';
  const stored = dir ? readEntry(TS, dir, key) : undefined;
  if (stored !== undefined) return { code: direct(stored, opts) };
  const result = compile()(opts);
  // A failed compile is not stored: jiti turns it into a thrown error on every load, as it should.
  if (dir && result.error === undefined && !result.code.includes('__JITI_ERROR__')) writeEntry(TS, dir, key, result.code);
  return result.error === undefined ? { ...result, code: direct(result.code, opts) } : result;
}

/** Relative imports of TypeScript files named directly (ts-specifiers.ts); stored entries keep the text as compiled. */
function direct(code: string, opts: TransformOptions): string {
  return opts.filename ? directTsSpecifiers(code, opts.filename) : code;
}
