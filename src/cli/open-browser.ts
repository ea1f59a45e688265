import { spawn } from 'node:child_process';

/** How a page is opened in the user's browser on this machine: the command and its arguments before the address. */
export interface BrowserCommand {
  command: string;
  args: string[];
}

/**
 * The command that opens an address in the user's default browser, or why none is tried: never in CI
 * (the `CI` variable set, as the rest of the CLI reads it), never when stdout is not a terminal (a
 * script or a test reads the address from it), and on Linux and the BSDs only with a display
 * (`DISPLAY` or `WAYLAND_DISPLAY`: over SSH there is none to open on).
 */
export function browserCommand(env: NodeJS.ProcessEnv, platform: NodeJS.Platform, terminal: boolean): BrowserCommand | { none: string } {
  if (env.CI) return { none: 'CI is set' };
  if (!terminal) return { none: 'stdout is not a terminal' };
  if (platform === 'darwin') return { command: 'open', args: [] };
  // `start` is a cmd.exe builtin; its first quoted argument is the window title.
  if (platform === 'win32') return { command: 'cmd', args: ['/c', 'start', '""'] };
  if (!env.DISPLAY && !env.WAYLAND_DISPLAY) return { none: 'no display (DISPLAY and WAYLAND_DISPLAY are unset)' };
  return { command: 'xdg-open', args: [] };
}

/**
 * Opens `url` in the browser when `browserCommand` names a way, detached (the browser outlives
 * nothing of ours); a missing opener is a line on stderr, never an error: the address is printed anyway.
 */
export function openBrowser(url: string, how: BrowserCommand, warn: (line: string) => void): void {
  const child = spawn(how.command, [...how.args, url], { stdio: 'ignore', detached: true });
  child.on('error', (err: NodeJS.ErrnoException) => warn(`could not open a browser (${how.command}: ${err.code ?? err.message}): open the address above`));
  child.unref();
}
