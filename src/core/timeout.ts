import { bindDeadline } from './deadline-pause.js';
import { asError, InterruptedError, TimeoutError } from './errors.js';

/**
 * Runs `work` with its own abort signal that fires after `ms` or when `outer` aborts. The promise
 * settles at that moment even if the work ignores its signal: a slow trial is an error, and the
 * run goes on. The deadline stops while the work waits behind a rate-limited endpoint: it is tied
 * to the work's signal (deadline-pause.ts), which the work's model calls carry to the fetch that
 * queues them. Queueing for the provider is not the trial being slow.
 */
export function withTimeout<T>(work: (signal: AbortSignal) => Promise<T>, ms: number, outer: AbortSignal): Promise<T> {
  const ac = new AbortController();
  return new Promise<T>((resolve, reject) => {
    const fail = (err: Error) => {
      cleanup();
      ac.abort(err);
      reject(err);
    };
    let remaining = ms;
    let armedAt = Date.now();
    let paused = 0;
    let timer: NodeJS.Timeout | undefined = setTimeout(() => fail(new TimeoutError(ms)), ms);
    const deadline = {
      pause() {
        if (paused++ > 0 || !timer) return;
        clearTimeout(timer);
        timer = undefined;
        remaining -= Date.now() - armedAt;
      },
      resume() {
        if (--paused > 0 || timer || settled) return;
        armedAt = Date.now();
        timer = setTimeout(() => fail(new TimeoutError(ms)), Math.max(0, remaining));
      },
    };
    let settled = false;
    // An enclosing deadline passes its own error down, so what the target attaches to it (the
    // partial run) reaches whoever catches that deadline.
    const onOuter = () => fail(outer.reason instanceof TimeoutError ? outer.reason : new InterruptedError());
    if (outer.aborted) return onOuter();
    outer.addEventListener('abort', onOuter, { once: true });
    function cleanup() {
      settled = true;
      clearTimeout(timer);
      outer.removeEventListener('abort', onOuter);
    }
    bindDeadline(ac.signal, outer, deadline);
    Promise.resolve()
      .then(() => work(ac.signal))
      .then(
        (v) => {
          cleanup();
          resolve(v);
        },
        (e: unknown) => {
          cleanup();
          reject(asError(e));
        },
      );
  });
}
