import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * Deadlines that stop while their work waits behind an endpoint's rate limit. A trial queued
 * behind a 429 pause is not slow, the provider is: that wait must cost time, not the trial.
 * Deadlines (trial, turn, target timeouts) register here as the work runs; the rate-limited
 * fetch pauses every deadline of the work it serves while its request waits for a slot.
 */
export interface PausableDeadline {
  pause(): void;
  resume(): void;
}

const current = new AsyncLocalStorage<readonly PausableDeadline[]>();

/** Runs `fn` with `deadline` added to the deadlines of the work that calls it. */
export function withDeadline<T>(deadline: PausableDeadline, fn: () => T): T {
  return current.run([...(current.getStore() ?? []), deadline], fn);
}

/** Pauses every deadline of the calling work; the returned function resumes them (once). */
export function pauseDeadlines(): () => void {
  const deadlines = current.getStore() ?? [];
  for (const d of deadlines) d.pause();
  let resumed = false;
  return () => {
    if (resumed) return;
    resumed = true;
    for (const d of deadlines) d.resume();
  };
}
