import type * as Crypto from 'node:crypto';
import type * as Fs from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { requireBuiltin } from '../core/builtin-require.js';

// Required, not imported: this module loads before the start chunk (builtin-require.ts says why).
const { randomBytes } = requireBuiltin('node:crypto') as typeof Crypto;
const { existsSync, lstatSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } = requireBuiltin('node:fs') as typeof Fs;

/**
 * The files of the on-disk caches (compiled TypeScript, ts-cache.ts; parsed eval files,
 * parse-cache.ts): where a cache lives, and entries written whole or not at all. An entry ends with
 * a stamp naming its cache and key; a torn, foreign or unreadable file lacks it and is not used.
 * Concurrent writers of one entry each write a file of their own and rename it over the entry, so
 * a reader sees one whole entry or another, never a mix.
 */

/** One cache: its folder under `.cache/agent-evals`, the entries' file extension and stamp name. */
export interface CacheKind {
  folder: string;
  ext: string;
  stamp: string;
}

/**
 * Where a file's entries live: the project's `node_modules/.cache/agent-evals/<folder>` (the nearest
 * node_modules above the file), else a directory of this user's own under the system temp dir.
 * Undefined when neither is usable: then every load does the work, as before.
 */
export function cacheDirFor(file: string, folder: string): string | undefined {
  for (let dir = dirname(file); ;) {
    const modules = join(dir, 'node_modules');
    if (existsSync(modules)) return join(modules, '.cache', 'agent-evals', folder);
    const up = dirname(dir);
    if (up === dir) break;
    dir = up;
  }
  const root = privateTempDir();
  return root === undefined ? undefined : join(root, folder);
}

/**
 * `<tmp>/agent-evals-<uid>`, only when this user owns it and no one else may write to it: a shared
 * temp dir must not let another user put code or cases in the place of an entry.
 */
function privateTempDir(): string | undefined {
  const uid = process.getuid?.();
  const root = join(tmpdir(), `agent-evals-${uid ?? 'user'}`);
  try {
    mkdirSync(root, { recursive: true, mode: 0o700 });
    const st = lstatSync(root);
    if (!st.isDirectory() || (uid !== undefined && st.uid !== uid) || (st.mode & 0o022) !== 0) return undefined;
    return root;
  } catch {
    return undefined;
  }
}

/** The stamp that closes a whole entry: a torn or foreign file lacks it. */
function stamp(kind: CacheKind, key: string): string {
  return `\n//# agent-evals-${kind.stamp} ${key}\n`;
}

/** The path of an entry. */
export function entryPath(kind: CacheKind, dir: string, key: string): string {
  return join(dir, `${key}${kind.ext}`);
}

/** The text of an entry, or undefined when there is none that can be trusted. */
export function readEntry(kind: CacheKind, dir: string, key: string): string | undefined {
  try {
    const text = readFileSync(entryPath(kind, dir, key), 'utf8');
    const end = stamp(kind, key);
    return text.endsWith(end) ? text.slice(0, -end.length) : undefined;
  } catch {
    return undefined;
  }
}

/** Stores an entry whole or not at all; a cache that cannot be written only costs the next load the work. */
export function writeEntry(kind: CacheKind, dir: string, key: string, body: string): void {
  const path = entryPath(kind, dir, key);
  const temp = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    mkdirSync(dir, { recursive: true });
    writeFileSync(temp, body + stamp(kind, key), { mode: 0o600 });
    renameSync(temp, path);
  } catch {
    rmSync(temp, { force: true });
  }
}
