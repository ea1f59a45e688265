import { fileURLToPath, pathToFileURL } from 'node:url';
import { LoadTimeoutError, UserError, errorMessage } from '../core/errors.js';
import { createRequire } from 'node:module';
import type { Jiti } from 'jiti';
import { watchLoad } from './load-watchdog.js';
import { namespaceOf } from './default-export.js';
import { openRegularFile, readOpenedHead } from '../core/regular-file.js';
import { refuseUtf16 } from '../core/text-encoding.js';

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
 * A module that blocks the thread (a loop that never ends) never lets the timer fire: in the CLI,
 * the watchdog (load-watchdog.ts) then writes the same message and kills the process.
 */
export async function importUserModule(file: string, displayPath = file, timeoutMs: number = DEFAULT_LOAD_TIMEOUT_MS): Promise<unknown> {
  await refuseUtf16Module(file, displayPath);
  const ts = isTypeScript(file) ? await typeScriptLoader() : undefined;
  const timeoutError = (why: string) =>
    new UserError(`cannot load: the module did not finish loading within ${timeoutMs} ms (${why}); raise the limit with --load-timeout or \`loadTimeoutMs\``, { file: displayPath });
  // Armed before the module runs: it may block the thread as soon as it is imported.
  const endWatch = watchLoad(timeoutMs, timeoutError('its code was still running: a loop that never ends?').message);
  let timer: NodeJS.Timeout | undefined;
  // The timer is not unref'd on purpose: it keeps the process alive until it fires.
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new LoadTimeoutError('module load timed out')), timeoutMs);
  });
  const loaded = load(file, ts).then(
    (value) => (isTypeScript(file) ? asNodeWouldGive(value) : value),
    (err: unknown) => (isTypeScript(file) ? nullDefault(err, file) : Promise.reject(err)),
  );
  try {
    return await Promise.race([loaded, timedOut]);
  } catch (err) {
    if (err instanceof LoadTimeoutError) {
      // The module may sit half-evaluated in jiti's cache: the next load starts afresh.
      jiti = undefined;
      throw timeoutError('a top-level await that never settles?');
    }
    throw new UserError(`cannot load: ${withoutOurImporter(firstLine(errorMessage(err)))}`, { file: displayPath, line: lineFromStack(err, file) });
  } finally {
    clearTimeout(timer);
    endWatch();
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
 * jiti, with its own options: its module cache (off after `forgetLoadedModules`, so a watch re-run
 * reads the saved files) and its on-disk cache of compiled modules.
 */
async function typeScriptLoader(): Promise<Jiti> {
  if (jiti) return jiti;
  const { createJiti } = await import('jiti');
  jiti ??= createJiti(import.meta.url, { interopDefault: true, moduleCache: generation === 0 });
  return jiti;
}

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

/**
 * Node names the importer of a module it cannot find: for the user's module itself that is this
 * file of ours, which says nothing to the user (a module's own missing import keeps its importer).
 */
function withoutOurImporter(text: string): string {
  return text.replace(` imported from ${fileURLToPath(import.meta.url)}`, '');
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
