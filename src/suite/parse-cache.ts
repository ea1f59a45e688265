import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cacheDirFor, readEntry, writeEntry, type CacheKind } from './cache-files.js';

/**
 * YAML eval files and datasets (YAML; JSONL and CSV up to a size, dataset-read.ts), parsed and
 * validated once and kept on disk as JSON. Parsing (js-yaml) and the eval-file schema check were
 * ~125 ms of a run's start-up on a 1,000-case file; a warm load reads the stored result and loads
 * neither (nor csv-parse, for a CSV dataset). An entry is named by a hash of the file's bytes, its path and
 * this build of agent-evals, so an edit (even one that keeps the size) is a new entry, never a
 * stale one. Only what the file alone decides is stored: a file with errors is never stored (it is
 * parsed again, and its errors found again, on every load), nor one whose result depends on the
 * run's config (user assertions), nor one JSON cannot hold exactly. Entries are written whole
 * (cache-files.ts); one that is torn, unreadable or not JSON is parsed anew.
 */

const PARSED: CacheKind = { folder: 'parsed', ext: '.json', stamp: 'parse-cache' };

/** Bumped when what is stored, or how it is named, changes. */
const FORMAT = 2;

let identity: string | undefined;

/**
 * This build of agent-evals: its version, and the size and time of this module's file (rewritten
 * by every build). Run from source (tests), the newest time of any source file instead, so an
 * edited schema is never served a result it did not check.
 */
function buildIdentity(): string {
  if (identity !== undefined) return identity;
  const self = fileURLToPath(import.meta.url);
  let version = '';
  try {
    version = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version?: string }).version ?? '';
  } catch {
    // Not where a build puts it: the file's own stamp below still names the build.
  }
  const st = statSync(self);
  let newest = `${st.size}:${st.mtimeMs}`;
  if (self.endsWith('.ts')) {
    const src = dirname(dirname(self));
    let latest = 0;
    for (const f of readdirSync(src, { recursive: true, encoding: 'utf8' })) if (f.endsWith('.ts')) latest = Math.max(latest, statSync(join(src, f)).mtimeMs);
    newest = `src:${latest}`;
  }
  identity = `${version}:${newest}`;
  return identity;
}

/** What a stored result is of the file: an eval file, or a dataset's rows (one file could be read as both). */
export type ParsedAs = 'eval' | 'dataset';

/** The name of the entry for these bytes at this path, read as `as`. */
export function parsedKey(file: string, bytes: Uint8Array, as: ParsedAs): string {
  const head = JSON.stringify([FORMAT, buildIdentity(), as, file]);
  return createHash('sha256').update(head).update('\0').update(bytes).digest('hex').slice(0, 40);
}

/** Where one file's entries are (cache-files.ts), or undefined when there is nowhere to keep them. */
export function parsedCacheDir(file: string): string | undefined {
  return cacheDirFor(file, PARSED.folder);
}

/** One file's entry, read as `as`: what is stored for its bytes, and how to store what a parse gave. */
export interface ParsedEntry<T> {
  /** The stored result, or undefined when there is none that can be trusted. */
  stored: T | undefined;
  store(value: T): void;
}

/** The entry of `file` (its path resolved) for these bytes: its key and cache folder found once, for the read and the store. */
export function parsedEntry<T>(file: string, bytes: Uint8Array, as: ParsedAs): ParsedEntry<T> {
  const path = resolve(file);
  const key = parsedKey(path, bytes, as);
  const dir = parsedCacheDir(path);
  return {
    stored: dir === undefined ? undefined : readParsed<T>(dir, key),
    store(value) {
      if (dir !== undefined) storeParsed(dir, key, value);
    },
  };
}

function readParsed<T>(dir: string, key: string): T | undefined {
  const text = readEntry(PARSED, dir, key);
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text) as T;
  } catch {
    return undefined;
  }
}

/**
 * Stores a result, unless JSON would not give it back as it is: NaN, ±Infinity and -0 (`.nan`,
 * `.inf` in YAML) would come back as null or 0, so such a file is just parsed on every load.
 */
function storeParsed(dir: string, key: string, value: unknown): void {
  let exact = true;
  const body = JSON.stringify(value, (_k, v: unknown) => {
    if (typeof v === 'number' && (!Number.isFinite(v) || Object.is(v, -0))) exact = false;
    return v;
  });
  if (exact) writeEntry(PARSED, dir, key, body);
}
