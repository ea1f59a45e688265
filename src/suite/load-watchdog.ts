import { Worker } from 'node:worker_threads';

/**
 * The last resort for a user module (config or *.eval.ts) that blocks the main thread while it
 * loads: a `while (true) {}` at top level never yields, so the load timer in import-module.ts never
 * fires, and neither would a signal handler. A worker thread keeps its own timer: once a load is
 * GRACE_MS past its limit and still not ended, it writes the load's message to stderr and kills the
 * process with SIGKILL, the one end a blocked thread cannot delay (the shell then reports exit
 * status 137, not 2). A module that yields is ended by the main thread's own timer first, with exit 2.
 *
 * Only the CLI's process arms it (`killOnStuckLoad`, called by bin/agent-evals.js): a library use,
 * `evaluate()` inside a test runner, is not ours to kill. Loads in a worker thread (an isolated
 * target) are not watched either: their thread is the isolated target's to end.
 */

/** After the limit, the time the main thread's own timer has to end a load before the process is killed. */
export const GRACE_MS = 1000;
/** The worker is stopped once no load has used it for this long (loads happen at start-up). */
const IDLE_STOP_MS = 1000;

// Plain CommonJS run by `eval`, so it needs no file next to the compiled module (tests run the
// sources). Messages in: { id, ms, message } arms a load, { id } ends it.
const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads');
const { writeSync } = require('node:fs');
const timers = new Map();
parentPort.on('message', (m) => {
  clearTimeout(timers.get(m.id));
  timers.delete(m.id);
  if (m.message === undefined) return;
  timers.set(m.id, setTimeout(() => {
    writeSync(2, m.message);
    process.kill(process.pid, 'SIGKILL');
  }, m.ms));
});
`;

let armed = false;
let worker: Worker | undefined;
let pending = 0;
let nextId = 1;
let idleTimer: NodeJS.Timeout | undefined;

/** Lets the watchdog kill this process when a load blocks past its limit (the CLI's process only). */
export function killOnStuckLoad(): void {
  armed = true;
}

/**
 * Watches one load for `timeoutMs` (+ GRACE_MS); `message` is what stderr shows if the process is
 * killed. Returns the function that ends the watch once the load has settled.
 */
export function watchLoad(timeoutMs: number, message: string): () => void {
  const dog = armed ? started() : undefined;
  if (!dog) return () => {};
  clearTimeout(idleTimer);
  const id = nextId++;
  pending += 1;
  dog.postMessage({ id, ms: timeoutMs + GRACE_MS, message: `agent-evals: ${message}\n` });
  return () => {
    dog.postMessage({ id });
    pending -= 1;
    if (pending === 0) idleTimer = setTimeout(stopIdle, IDLE_STOP_MS).unref();
  };
}

/** The worker, started on first use; undefined when no thread can start (the load timer alone then bounds loads). */
function started(): Worker | undefined {
  if (worker) return worker;
  try {
    // No inherited options: `--input-type=module` (node -e, stdin) would make the source a module, without `require`.
    worker = new Worker(WORKER_SOURCE, { eval: true, execArgv: [] });
  } catch {
    return undefined;
  }
  const self = worker;
  // Never what keeps the process alive.
  self.unref();
  self.on('error', () => {});
  self.once('exit', () => {
    if (worker === self) worker = undefined;
  });
  return self;
}

function stopIdle(): void {
  if (pending > 0 || !worker) return;
  void worker.terminate();
  worker = undefined;
}
