/**
 * Deadlines that stop while their work waits behind an endpoint's rate limit. A trial queued
 * behind a 429 pause is not slow, the provider is: that wait must cost time, not the trial.
 *
 * A deadline (trial, turn, target timeout) is tied to the abort signal it hands its work, beside
 * the deadlines of the signal it was given: the signal a model call carries names every deadline
 * of the work it serves, and the rate-limited fetch pauses them while the request waits for a slot
 * (rate-limit-fetch.ts). Passed explicitly, not through an async context: once any
 * AsyncLocalStorage is entered, Node runs a hook on every promise of the process.
 */
export interface PausableDeadline {
  pause(): void;
  resume(): void;
}

const bySignal = new WeakMap<AbortSignal, readonly PausableDeadline[]>();

/** Ties `deadline` to `signal` (the one its work gets), after the deadlines of `outer` (the enclosing work's signal). */
export function bindDeadline(signal: AbortSignal, outer: AbortSignal, deadline: PausableDeadline): void {
  const enclosing = bySignal.get(outer);
  bySignal.set(signal, enclosing ? [...enclosing, deadline] : [deadline]);
}

/** The deadlines of the work `signal` was handed to, innermost last; undefined when none bounds it. */
export function deadlinesOf(signal: AbortSignal | null | undefined): readonly PausableDeadline[] | undefined {
  return signal ? bySignal.get(signal) : undefined;
}

/** Pauses `deadlines`; the returned function resumes them (once). */
export function pauseDeadlines(deadlines: readonly PausableDeadline[]): () => void {
  for (const d of deadlines) d.pause();
  let resumed = false;
  return () => {
    if (resumed) return;
    resumed = true;
    for (const d of deadlines) d.resume();
  };
}
