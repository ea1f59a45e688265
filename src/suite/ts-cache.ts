import { createHash, randomBytes } from 'node:crypto';
import { existsSync, lstatSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { TransformOptions, TransformResult } from 'jiti';
import { directTsSpecifiers } from './ts-specifiers.js';

/**
 * TypeScript config and eval modules, compiled once and kept on disk. jiti's compiler (babel,
 * ~1.5 MB of code) and the compile itself were most of a `list`'s start-up; a warm load reads the
 * compiled text and never loads the compiler. An entry is named by a hash of the source, the file,
 * the compile options and the compiler's version, so a changed source is a new entry and never a
 * stale module. Entries are written whole (a temporary file renamed over), and an entry that
 * cannot be read, or lacks its closing stamp, is compiled anew.
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

/**
 * Where a module's entries live: the project's `node_modules/.cache/agent-evals/ts` (the nearest
 * node_modules above the file), else a directory of this user's own under the system temp dir.
 * Undefined when neither is usable: then every load compiles, as before.
 */
export function cacheDirFor(file: string): string | undefined {
  for (let dir = dirname(file); ;) {
    const modules = join(dir, 'node_modules');
    if (existsSync(modules)) return join(modules, '.cache', 'agent-evals', 'ts');
    const up = dirname(dir);
    if (up === dir) break;
    dir = up;
  }
  return privateTempDir();
}

/**
 * `<tmp>/agent-evals-<uid>/ts`, only when this user owns it and no one else may write to it: a
 * shared temp dir must not let another user put code in the place of a compiled module.
 */
function privateTempDir(): string | undefined {
  const uid = process.getuid?.();
  const root = join(tmpdir(), `agent-evals-${uid ?? 'user'}`);
  try {
    mkdirSync(root, { recursive: true, mode: 0o700 });
    const st = lstatSync(root);
    if (!st.isDirectory() || (uid !== undefined && st.uid !== uid) || (st.mode & 0o022) !== 0) return undefined;
    return join(root, 'ts');
  } catch {
    return undefined;
  }
}

/** The stamp that closes a whole entry: a torn or foreign file lacks it. */
function stamp(key: string): string {
  return `\n//# agent-evals-ts-cache ${key}\n`;
}

/** The compiled text of an entry, or undefined when there is none that can be trusted. */
export function readEntry(dir: string, key: string): string | undefined {
  try {
    const text = readFileSync(join(dir, `${key}.js`), 'utf8');
    const end = stamp(key);
    return text.endsWith(end) ? text.slice(0, -end.length) : undefined;
  } catch {
    return undefined;
  }
}

/** Stores an entry whole or not at all; a cache that cannot be written only costs the next load a compile. */
export function writeEntry(dir: string, key: string, code: string): void {
  const path = join(dir, `${key}.js`);
  const temp = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    mkdirSync(dir, { recursive: true });
    writeFileSync(temp, code + stamp(key), { mode: 0o600 });
    renameSync(temp, path);
  } catch {
    rmSync(temp, { force: true });
  }
}

/** Whether `source` of `file`, compiled with `opts`, is already stored (the compiler then need not load). */
export function isCached(opts: TransformOptions): boolean {
  const dir = opts.filename ? cacheDirFor(opts.filename) : undefined;
  return dir !== undefined && readEntry(dir, entryKey(opts)) !== undefined;
}

/** jiti's `transform` option: a stored entry when there is one, else a compile that is stored. */
export function cachedTransform(opts: TransformOptions, compile: () => Transform = compiler): TransformResult {
  const dir = opts.filename ? cacheDirFor(opts.filename) : undefined;
  const key = dir ? entryKey(opts) : '';
  const stored = dir ? readEntry(dir, key) : undefined;
  if (stored !== undefined) return { code: direct(stored, opts) };
  const result = compile()(opts);
  // A failed compile is not stored: jiti turns it into a thrown error on every load, as it should.
  if (dir && result.error === undefined && !result.code.includes('__JITI_ERROR__')) writeEntry(dir, key, result.code);
  return result.error === undefined ? { ...result, code: direct(result.code, opts) } : result;
}

/** Relative imports of TypeScript files named directly (ts-specifiers.ts); stored entries keep the text as compiled. */
function direct(code: string, opts: TransformOptions): string {
  return opts.filename ? directTsSpecifiers(code, opts.filename) : code;
}
