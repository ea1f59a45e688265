import { isThenable } from './multiplexer.js';

/** A hook that did not settle within its bound (the message says which bound). */
export class HookTimeoutError extends Error {}

/**
 * The bound on a reporter module's hooks, which are user code: what a hook returns that is a
 * promise must settle within `timeoutMs` (config `reporterTimeoutMs`), and once the run is
 * interrupted, every hook still pending or started later has until the interrupt's grace ends.
 * Past its bound the hook's promise rejects, so the multiplexer drops that reporter with a line
 * naming it and the others go on. The hook's own work is left running, unawaited: the CLI's exit
 * does not wait for it. A hook that blocks synchronously cannot be bounded from inside the process.
 */
export class HookBound {
  /** The reject of every hook pending now, called when the interrupt's grace ends. */
  readonly #pending = new Set<(err: Error) => void>();
  #cut: Error | undefined;

  constructor(readonly timeoutMs: number) {}

  /**
   * Once `interrupt` aborts, hooks have `graceMs` more in all: then the pending ones fail, and later
   * ones at once. The returned function stops following (a caller's signal outlives its run).
   */
  follow(interrupt: AbortSignal, graceMs: number): () => void {
    let timer: NodeJS.Timeout | undefined;
    const start = () => {
      // Not unref'd: a pending hook with nothing else alive would otherwise end the process unsettled.
      timer = setTimeout(() => {
        this.#cut = new HookTimeoutError(`did not settle within the ${graceMs} ms the run gives reporters after an interrupt`);
        for (const reject of this.#pending) reject(this.#cut);
        this.#pending.clear();
      }, graceMs);
    };
    if (interrupt.aborted) start();
    else interrupt.addEventListener('abort', start, { once: true });
    return () => {
      interrupt.removeEventListener('abort', start);
      clearTimeout(timer);
    };
  }

  /** What a hook returned, bounded: a thenable becomes a promise that rejects past the bound; anything else is returned as it is. */
  settle<T>(value: T): T | Promise<Awaited<T>> {
    if (!isThenable(value)) return value;
    const given = Promise.resolve(value);
    if (this.#cut) {
      given.catch(() => {});
      return Promise.reject(this.#cut);
    }
    return new Promise<Awaited<T>>((resolve, reject) => {
      const fail = (err: Error) => {
        done();
        reject(err);
      };
      // Not unref'd, as above: this timer is what ends the wait on a hook that nothing else keeps alive.
      const timer = setTimeout(() => fail(new HookTimeoutError(`did not settle within ${this.timeoutMs} ms (reporterTimeoutMs)`)), this.timeoutMs);
      const done = () => {
        clearTimeout(timer);
        this.#pending.delete(fail);
      };
      this.#pending.add(fail);
      given.then(
        (v) => {
          done();
          resolve(v);
        },
        (err: unknown) => {
          done();
          reject(err);
        },
      );
    });
  }
}

/**
 * The bound on one run's user reporters: `reporterTimeoutMs` for each hook, and after Ctrl-C (or
 * SIGTERM, or an aborted `evaluate()` signal) the in-flight trials' grace and as long again for all of them.
 */
export function reporterHooks(reporterTimeoutMs: number, interruptGraceMs: number): { bound: HookBound; graceMs: number } {
  return { bound: new HookBound(reporterTimeoutMs), graceMs: 2 * interruptGraceMs };
}
