/** Finds Debian's system Chromium for the browser tests (playwright-core downloads no browser). */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';

/** The path of a `chromium` executable on PATH or at /usr/bin/chromium; undefined when none is installed. */
export function findChromium(): string | undefined {
  try {
    const found = execFileSync('which', ['chromium'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    if (found) return found;
  } catch {
    // `which` exits 1 when nothing is found.
  }
  return existsSync('/usr/bin/chromium') ? '/usr/bin/chromium' : undefined;
}

/** Launch flags: Chromium refuses its sandbox as root, which is how CI containers run. */
export function chromiumArgs(): string[] {
  return process.getuid?.() === 0 ? ['--no-sandbox'] : [];
}
