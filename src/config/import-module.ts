import { pathToFileURL } from 'node:url';
import { UserError, errorMessage } from '../errors.js';

type Jiti = { import(id: string, opts?: { default?: boolean }): Promise<unknown> };
let jiti: Jiti | undefined;

/**
 * Loads a user module (config or *.eval.ts). TypeScript goes through jiti, loaded only when a
 * TypeScript file is met, so YAML-only runs never pay for it; plain JS uses Node's own import.
 */
export async function importUserModule(file: string, displayPath = file): Promise<unknown> {
  try {
    if (/\.(c|m)?ts$/.test(file)) {
      if (!jiti) {
        const { createJiti } = await import('jiti');
        jiti = createJiti(import.meta.url, { interopDefault: true, moduleCache: true, fsCache: false }) as Jiti;
      }
      return await jiti.import(file, { default: true });
    }
    const mod = (await import(pathToFileURL(file).href)) as { default?: unknown };
    return mod.default ?? mod;
  } catch (err) {
    throw new UserError(`cannot load: ${firstLine(errorMessage(err))}`, { file: displayPath, line: lineFromStack(err, file) });
  }
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
