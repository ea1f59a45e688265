import { rmSync } from 'node:fs';

/** Files to remove if the process exits while they are in use (a temp file mid-write, a held lock). */
const inUse = new Set<string>();
let installed = false;

/**
 * Removes `path` at process exit unless the returned release is called first: a second Ctrl-C exits
 * mid-write, and must leave no temp file or lock behind. 'exit' runs on process.exit too; only
 * synchronous work happens there.
 */
export function removeAtExit(path: string): () => void {
  inUse.add(path);
  if (!installed) {
    installed = true;
    process.on('exit', () => {
      for (const p of inUse) rmSync(p, { force: true });
    });
  }
  return () => inUse.delete(path);
}
