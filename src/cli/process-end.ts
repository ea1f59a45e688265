import { exitProcess } from '../runner/isolation/exit-trap.js';

/** Lets a config or eval module that blocks the thread at import end the CLI's process (suite/load-watchdog.ts). */
export { killOnStuckLoad } from '../suite/load-watchdog.js';

/**
 * How the CLI process ends. A reader that closed the pipe early (`agent-evals run | head`) ends
 * our output, not the run: further writes to that stream are dropped without a stack trace. And
 * once the run is over, nothing a target left behind (an SDK call made without its abort signal,
 * a timer) may keep the process alive: after a short grace the exit code is returned anyway.
 */

/** Drops output to a stream whose reader went away (EPIPE) instead of crashing on it. */
export function ignoreClosedPipes(streams: NodeJS.WriteStream[] = [process.stdout, process.stderr]): void {
  for (const stream of streams) {
    stream.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'EPIPE' || err.code === 'ERR_STREAM_DESTROYED') return;
      throw err;
    });
  }
}

/** Time left to what a target leaked after the run ended, before the process exits regardless. */
export const EXIT_GRACE_MS = 1_000;

/**
 * Exits with the run's exit code once stdout and stderr are flushed, if the process is still
 * alive `graceMs` from now. The timer is unref'd: a process with nothing left to do ends at once.
 */
export function exitSoon(graceMs = EXIT_GRACE_MS): void {
  const timer = setTimeout(() => {
    void Promise.all([flushed(process.stdout), flushed(process.stderr)]).then(() => exitProcess(typeof process.exitCode === 'number' ? process.exitCode : 0));
  }, graceMs);
  timer.unref();
}

/** Resolves once what was written to `stream` so far has been handed to the OS (or the stream is gone). */
function flushed(stream: NodeJS.WriteStream): Promise<void> {
  if (stream.destroyed || !stream.writable) return Promise.resolve();
  return new Promise((resolve) => {
    stream.write('', () => resolve());
  });
}
