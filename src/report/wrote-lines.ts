import { isAbsolute, relative } from 'node:path';
import pc from 'picocolors';
import type { Reporter } from './reporter.js';
import { terminalSafe } from './sanitize.js';

/** `wrote <path>`: relative to the working directory when inside it, else absolute. */
export function wroteLine(path: string, cwd: string): string {
  const rel = relative(cwd, path);
  const shown = rel && !rel.startsWith('..') && !isAbsolute(rel) ? rel : path;
  return `${pc.dim('wrote')} ${terminalSafe(shown)}`;
}

/**
 * The terminal's last lines: one per file the other reporters wrote. It must come after them, so
 * their `onEnd` (where they write) has finished; a reporter that failed names no file. The `quiet`
 * paths (the results document every run leaves unasked) are not named: no line on every run.
 */
export function wroteReporter(opts: { out: { write(text: string): unknown }; cwd: string; reporters: readonly Reporter[]; quiet?: readonly string[] }): Reporter {
  return {
    onEnd() {
      for (const r of opts.reporters) for (const path of r.written?.() ?? []) if (!opts.quiet?.includes(path)) opts.out.write(`${wroteLine(path, opts.cwd)}\n`);
    },
  };
}
