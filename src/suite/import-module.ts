import { pathToFileURL } from 'node:url';
import { LoadTimeoutError, UserError, errorMessage } from '../core/errors.js';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { watchLoad } from './load-watchdog.js';
import { cachedTransform, compiler, isCached, type TransformOptions } from './ts-cache.js';
import { jitiCompileOptions, planWarmLoad, ScriptTimeoutError, type JitiImport } from './ts-warm-load.js';
import { namespaceOf } from './default-export.js';
import { openRegularFile, readOpenedHead } from '../core/regular-file.js';
import { refuseUtf16 } from '../core/text-encoding.js';

type Jiti = { import(id: string, opts?: { default?: boolean }): Promise<unknown>; transform(opts: { source: string; filename: string; ts: boolean }): string };
let jiti: Jiti | undefined;
/** Bumped by `forgetLoadedModules`: a load after it evaluates the file anew (for `--watch`). */
let generation = 0;

/**
 * The next loads read user modules from disk again, not from the module cache: a watch re-run
 * sees the saved config and *.eval.ts. Node's cache of a plain-JS module's own imports stays.
 */
export function forgetLoadedModules(): void {
  generation += 1;
  jiti = undefined;
}

/** The `loadTimeoutMs` default (config/defaults.ts lists it with the others). */
export const DEFAULT_LOAD_TIMEOUT_MS = 30_000;

/**
 * Loads a user module (config or *.eval.ts). TypeScript goes through jiti, loaded only when a
 * TypeScript file is met, so YAML-only runs never pay for it; plain JS uses Node's own import.
 * A module whose evaluation does not settle within `timeoutMs` (a top-level await that never
 * ends) is a load error: without the timer, Node would end with exit 13 and no message, or hang.
 * A module that blocks the thread (a loop that never ends) never lets the timer fire: the
 * watchdog (load-watchdog.ts) stops its code, or V8 does when a warm TypeScript graph runs in one
 * bounded call (ts-warm-load.ts), and it is the same load error.
 */
export async function importUserModule(file: string, displayPath = file, timeoutMs: number = DEFAULT_LOAD_TIMEOUT_MS): Promise<unknown> {
  await refuseUtf16Module(file, displayPath);
  // A warm graph runs without jiti (ts-warm-load.ts); a fresh module cache (`--watch`) keeps jiti's own.
  const warm = isTypeScript(file) && generation === 0 ? planWarmLoad(file, importThroughJiti) : undefined;
  const ts = isTypeScript(file) && !warm ? await typeScriptLoader(file) : undefined;
  // Running before the limit starts: the module may block the thread as soon as it is imported.
  // A bounded warm graph needs no watchdog thread: V8 itself stops its code at the limit.
  const watch = warm?.bounded ? undefined : await watchLoad(timeoutMs);
  let timer: NodeJS.Timeout | undefined;
  // The timer is not unref'd on purpose: it keeps the process alive until it fires.
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new LoadTimeoutError('module load timed out')), timeoutMs);
  });
  // The watchdog's own word, in case what it stopped was this thread's timer callback.
  const cutOff = watch?.cutOff.then(() => {
    throw new LoadTimeoutError('module code stopped');
  });
  // The module starts in a microtask, after the race below is set: a stopped module unwinds no frame of this function.
  const loaded = Promise.resolve()
    .then(() => (warm ? warm.run(timeoutMs) : load(file, ts)))
    .then(
      (value) => (isTypeScript(file) ? asNodeWouldGive(value) : value),
      (err: unknown) => (isTypeScript(file) ? nullDefault(err, file) : Promise.reject(err)),
    );
  try {
    return await Promise.race([loaded, timedOut, ...(cutOff ? [cutOff] : [])]);
  } catch (err) {
    if (err instanceof LoadTimeoutError || err instanceof ScriptTimeoutError) {
      // The module may sit half-evaluated in jiti's cache: the next load starts afresh.
      jiti = undefined;
      const why = watch?.wasCut() || err instanceof ScriptTimeoutError ? 'its code was still running: a loop that never ends?' : 'a top-level await that never settles?';
      throw new UserError(`cannot load: the module did not finish loading within ${timeoutMs} ms (${why}); raise the limit with --load-timeout or \`loadTimeoutMs\``, {
        file: displayPath,
      });
    }
    throw new UserError(`cannot load: ${firstLine(errorMessage(err))}`, { file: displayPath, line: lineFromStack(err, file) });
  } finally {
    clearTimeout(timer);
    watch?.end();
  }
}

/**
 * A module saved as UTF-16 is said so, naming it, rather than left to the loader's "Invalid or
 * unexpected token". A file that cannot be opened as a regular one is the loader's to report.
 */
async function refuseUtf16Module(file: string, displayPath: string): Promise<void> {
  let head: Buffer;
  try {
    const opened = await openRegularFile(file);
    try {
      head = await readOpenedHead(opened, 64);
    } finally {
      await opened.handle.close();
    }
  } catch {
    return;
  }
  refuseUtf16(head, displayPath);
}

function isTypeScript(file: string): boolean {
  return /\.(c|m)?ts$/.test(file);
}

/**
 * jiti, whose compiles go through the on-disk cache (ts-cache.ts). Loading the compiler takes
 * hundreds of ms of synchronous work, which is this tool's start-up, not the user module's load
 * time: when `file` is not compiled yet, the compiler loads before the limit starts.
 */
async function typeScriptLoader(file: string): Promise<Jiti> {
  jiti ??= createJitiFor(import.meta.url);
  const entry = jitiCompileOptions(file, await readFile(file, 'utf8').catch(() => ''));
  if (!isCached(entry)) compiler();
  return jiti;
}

/** A jiti instance that resolves from `parent`, its compiles going through the cache. */
function createJitiFor(parent: string): Jiti {
  // jiti's CommonJS entry: importing its ES entry makes Node scan its 190 KB bundle for export names first.
  const { createJiti } = createRequire(import.meta.url)('jiti') as typeof import('jiti');
  const transform = (opts: TransformOptions) => cachedTransform(opts);
  return createJiti(parent, { interopDefault: true, moduleCache: generation === 0, fsCache: false, transform }) as Jiti;
}

/** One import of a warm graph handed to jiti, as from `parent` (ts-warm-load.ts). */
const importThroughJiti: JitiImport = (parent, id) => createJitiFor(parent).import(id);

async function load(file: string, ts: Jiti | undefined): Promise<unknown> {
  if (ts) return await ts.import(file, { default: true });
  const href = pathToFileURL(file).href;
  const mod = (await import(generation === 0 ? href : `${href}?watch=${generation}`)) as { default?: unknown };
  return mod.default ?? mod;
}

/**
 * jiti's answer for a module with no usable default export is the module's compiled exports object
 * (babel marks it `__esModule`): made the namespace Node gives for such a module, so a config or eval
 * file says "has no default export" the same way whether it is TypeScript or JavaScript.
 */
function asNodeWouldGive(value: unknown): unknown {
  const compiledExports = value !== null && typeof value === 'object' && Object.hasOwn(value, '__esModule') && (value as { __esModule?: unknown }).__esModule === true;
  return compiledExports ? namespaceOf(value) : value;
}

/**
 * jiti cannot hand back a module whose default export is null: its view of the module reads `then`
 * from that null as the import is awaited (a TypeError). The module did load; its exports are in the
 * module cache (not under `--watch`, whose loads keep no cache: there it is said in words).
 */
function nullDefault(err: unknown, file: string): unknown {
  if (!(err instanceof TypeError) || !err.message.includes("Cannot read properties of null (reading 'then')")) throw err;
  const cached = createRequire(import.meta.url).cache[file];
  if (cached?.loaded && (cached.exports as { default?: unknown } | null)?.default === null) return namespaceOf(cached.exports as object);
  throw new Error("a default export is null (this module's, or that of a module it imports)");
}

function firstLine(text: string): string {
  return text.split('\n').find((l) => l.trim() !== '') ?? text;
}

/** The line of `file` in an error's stack, when the error was thrown while evaluating it. */
function lineFromStack(err: unknown, file: string): number | undefined {
  const stack = err instanceof Error ? (err.stack ?? '') : '';
  const escaped = file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const m = new RegExp(`${escaped}:(\\d+)`).exec(stack);
  return m ? Number(m[1]) : undefined;
}
