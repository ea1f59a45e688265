import { pathToFileURL } from 'node:url';
import { LoadTimeoutError, UserError, errorMessage } from '../core/errors.js';

type Jiti = { import(id: string, opts?: { default?: boolean }): Promise<unknown> };
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
 */
export async function importUserModule(file: string, displayPath = file, timeoutMs: number = DEFAULT_LOAD_TIMEOUT_MS): Promise<unknown> {
  let timer: NodeJS.Timeout | undefined;
  // The timer is not unref'd on purpose: it keeps the process alive until it fires.
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new LoadTimeoutError('module load timed out')), timeoutMs);
  });
  try {
    return await Promise.race([load(file), timedOut]);
  } catch (err) {
    if (err instanceof LoadTimeoutError) {
      throw new UserError(`cannot load: the module did not finish loading within ${timeoutMs} ms (a top-level await that never settles?); raise the limit with --load-timeout or \`loadTimeoutMs\``, {
        file: displayPath,
      });
    }
    throw new UserError(`cannot load: ${firstLine(errorMessage(err))}`, { file: displayPath, line: lineFromStack(err, file) });
  } finally {
    clearTimeout(timer);
  }
}

async function load(file: string): Promise<unknown> {
  if (/\.(c|m)?ts$/.test(file)) {
    if (!jiti) {
      const { createJiti } = await import('jiti');
      jiti = createJiti(import.meta.url, { interopDefault: true, moduleCache: generation === 0, fsCache: false }) as Jiti;
    }
    return await jiti.import(file, { default: true });
  }
  const href = pathToFileURL(file).href;
  const mod = (await import(generation === 0 ? href : `${href}?watch=${generation}`)) as { default?: unknown };
  return mod.default ?? mod;
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
