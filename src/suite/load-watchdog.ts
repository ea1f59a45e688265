import type * as WorkerThreads from 'node:worker_threads';
import type { Worker } from 'node:worker_threads';
import { requireBuiltin } from '../core/builtin-require.js';

/** Required on first use, not imported: a load that needs no watchdog loads no worker_threads. */
const threads = () => requireBuiltin('node:worker_threads') as typeof WorkerThreads;

/**
 * Cuts off a user module (config or *.eval.ts) that blocks the main thread while it loads: a
 * `while (true) {}` at top level never yields, so the load timer in import-module.ts never fires.
 * The modules hold functions, so they must load in this thread; the watchdog is a worker thread
 * with its own timer. When a load outlives its limit and the main thread does not answer a ping,
 * the worker opens an inspector session to the main thread, pauses it (V8 delivers the pause as an
 * interrupt, even inside a loop), checks while it stands still that the load is still pending,
 * terminates the running JavaScript and resumes. V8 ends the termination once the stuck call has
 * unwound, the event loop runs again, and the load is rejected through the normal error path.
 *
 * Not used (the load timer alone bounds the load, as before) when the inspector is already in use
 * (`--inspect`: a debugger may hold the module paused on purpose), in a worker thread (the inspector
 * reaches only the process's main thread), or where Node has no inspector. Code blocked inside a
 * native call (a synchronous child process) takes no interrupt and is not cut off.
 *
 * Not needed either for a warm TypeScript graph that ts-warm-load.ts runs in one bounded call (V8's
 * own timer stops it): the thread then never starts, so a warm `list` of a TypeScript suite pays for
 * no second Node instance. Otherwise the thread starts at the first load that needs it.
 */

/** How long the main thread may leave a ping unanswered, after the limit, before it counts as stuck. */
const PING_GRACE_MS = 500;
/** The watchdog is stopped once no load has used it for this long (a run loads its modules at start). */
const IDLE_STOP_MS = 1000;
/** Slots for pending loads: slot `id % SLOTS` holds `id` while that load is pending, `-id` once cut off. */
const SLOTS = 64;

// Plain CommonJS run by `eval`, so it needs no file next to the compiled module (tests run the
// sources). Messages in: arm {id, ms}, disarm {id}, pong {id}; out: ping {id}, cut {id}.
const WORKER_SOURCE = `
const { workerData, parentPort } = require('node:worker_threads');
const { Session } = require('node:inspector');
const pending = new Int32Array(workerData.pending);
const stillPending = (id) => Atomics.load(pending, id % pending.length) === id;
const timers = new Map();
const stop = (id) => { clearTimeout(timers.get(id)); timers.delete(id); };
parentPort.on('message', (m) => {
  stop(m.id);
  if (m.type === 'arm') timers.set(m.id, setTimeout(() => expired(m.id), m.ms));
});
function expired(id) {
  if (!stillPending(id)) return;
  // An answer proves the event loop turns: the main thread's own timer then ends the load.
  timers.set(id, setTimeout(() => cut(id), ${PING_GRACE_MS}));
  parentPort.postMessage({ type: 'ping', id });
}
function cut(id) {
  timers.delete(id);
  if (!stillPending(id)) return;
  const session = new Session();
  session.connectToMainThread();
  let stopped = false;
  session.once('Debugger.paused', () => {
    // The main thread stands still here, so the check cannot race the load's own end.
    if (stillPending(id)) {
      stopped = true;
      Atomics.store(pending, id % pending.length, -id);
      session.post('Runtime.terminateExecution');
    }
    session.post('Debugger.resume', () => session.post('Debugger.disable', () => {
      // Disconnected before the main thread goes on, or its exit would wait for this session.
      session.disconnect();
      if (stopped) parentPort.postMessage({ type: 'cut', id });
    }));
  });
  session.post('Debugger.enable', () => session.post('Debugger.pause'));
}
`;

interface Watchdog {
  worker: Worker;
  pending: Int32Array;
  online: Promise<boolean>;
  /** What to do when the worker has cut off a load, by load id. */
  onCut: Map<number, () => void>;
}

let current: Watchdog | undefined;
let nextId = 1;
let idleTimer: NodeJS.Timeout | undefined;

export interface LoadWatch {
  /** Settles when the watchdog has stopped the module's code (the load is then over its limit). */
  cutOff: Promise<void>;
  /** Whether the watchdog stopped the module's code; true from the moment it did, before `cutOff` settles. */
  wasCut(): boolean;
  /** The load has settled: stop watching it. */
  end(): void;
}

/**
 * Watches one load for `timeoutMs`; the main thread may block as soon as this resolves. Undefined where no watchdog can run (see above): the caller's timer still bounds a
 * load that yields.
 */
export async function watchLoad(timeoutMs: number): Promise<LoadWatch | undefined> {
  if (!threads().isMainThread || !(await inspectorFree())) return undefined;
  clearTimeout(idleTimer);
  const dog = (current ??= start());
  // Not waiting for the thread to come online (50–300 ms on a busy machine, all of it start-up):
  // the arm message waits in its port, and a thread still booting while this one blocks boots and
  // cuts the load off all the same (test/e2e/cli-load-loop.test.ts).
  if (!dog) return undefined;
  const id = nextId++;
  const slot = id % SLOTS;
  Atomics.store(dog.pending, slot, id);
  const cutOff = new Promise<void>((resolve) => dog.onCut.set(id, resolve));
  dog.worker.postMessage({ type: 'arm', id, ms: timeoutMs });
  return {
    cutOff,
    wasCut: () => Atomics.load(dog.pending, slot) === -id,
    end: () => {
      // The worker writes only while this thread is paused, so nothing races this.
      if (Math.abs(Atomics.load(dog.pending, slot)) === id) Atomics.store(dog.pending, slot, 0);
      dog.onCut.delete(id);
      dog.worker.postMessage({ type: 'disarm', id });
      if (dog.onCut.size === 0 && current === dog) {
        clearTimeout(idleTimer);
        idleTimer = setTimeout(stopIdle, IDLE_STOP_MS).unref();
      }
    },
  };
}

/** False when a debugger may be attached, or Node was built without the inspector. */
async function inspectorFree(): Promise<boolean> {
  try {
    const inspector = await import('node:inspector');
    return inspector.url() === undefined;
  } catch {
    return false;
  }
}

/** The watchdog thread, started; undefined when no thread can start (the load timer alone then bounds loads). */
function start(): Watchdog | undefined {
  const shared = new SharedArrayBuffer(SLOTS * Int32Array.BYTES_PER_ELEMENT);
  let worker: Worker;
  try {
    // No inherited options: `--input-type=module` (node -e, stdin) would make the source a module, without `require`.
    worker = new (threads().Worker)(WORKER_SOURCE, { eval: true, execArgv: [], workerData: { pending: shared } });
  } catch {
    return undefined;
  }
  const dog: Watchdog = { worker, pending: new Int32Array(shared), onCut: new Map(), online: Promise.resolve(false) };
  worker.on('message', (m: { type: 'ping' | 'cut'; id: number }) => {
    if (m.type === 'ping') worker.postMessage({ type: 'pong', id: m.id });
    else dog.onCut.get(m.id)?.();
  });
  // Kept referenced until it runs (nothing else may hold the process open yet), never after.
  dog.online = new Promise<boolean>((resolve) => {
    worker.once('online', () => resolve(true));
    worker.on('error', () => resolve(false));
    worker.once('exit', () => {
      resolve(false);
      if (current === dog) current = undefined;
    });
  }).finally(() => worker.unref());
  return dog;
}

function stopIdle(): void {
  const dog = current;
  if (!dog || dog.onCut.size > 0) return;
  current = undefined;
  void dog.worker.terminate();
}
