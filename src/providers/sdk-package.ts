import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const found = new Map<string, boolean>();

/**
 * Whether `pkg` resolves from agent-evals' own install (where Node looks when a wire imports it):
 * an optional peer dependency is checked before any call, without loading it.
 */
export function isInstalled(pkg: string): boolean {
  let ok = found.get(pkg);
  if (ok === undefined) {
    try {
      require.resolve(pkg);
      ok = true;
    } catch {
      ok = false;
    }
    found.set(pkg, ok);
  }
  return ok;
}
