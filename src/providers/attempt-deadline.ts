import type { FetchLike } from './fetch-like.js';

/** A fetch that enforces an attempt's time limit itself (node-fetch.ts), with no abort signal of its own. */
export interface TimedFetch extends FetchLike {
  /** `fetch(input, init)` that fails as aborted by a TimeoutError when it has not finished within `ms`. */
  timed(input: Parameters<FetchLike>[0], init: RequestInit | undefined, ms: number): Promise<Response>;
}

export function isTimedFetch(f: FetchLike): f is TimedFetch {
  return typeof (f as Partial<TimedFetch>).timed === 'function';
}

/** The error of an attempt past its time limit: a TimeoutError, as the reason of an abort. */
export function attemptTimedOut(ms: number): DOMException {
  return new DOMException(`attempt timed out after ${ms} ms`, 'TimeoutError');
}

/**
 * What a request aborted by its attempt's time limit fails with: node:http's AbortError shape (the
 * SDKs read an AbortError from their fetch as a timed-out connection), the TimeoutError its cause.
 */
export function attemptAborted(ms: number): Error {
  return Object.assign(new Error('The operation was aborted', { cause: attemptTimedOut(ms) }), { name: 'AbortError', code: 'ABORT_ERR' });
}

/**
 * Runs one HTTP attempt of any `fetch` under the caller's signal plus the attempt's own time limit,
 * through an abort signal of its own. (By hand, not AbortSignal.timeout: its timer would outlive
 * every quick call by a minute.) node-fetch.ts does the same for its own requests with one timer.
 */
export async function fetchWithDeadline(base: FetchLike, input: Parameters<FetchLike>[0], init: RequestInit | undefined, ms: number): Promise<Response> {
  const ac = new AbortController();
  const outer = init?.signal ?? undefined;
  const forward = () => ac.abort(outer?.reason);
  if (outer?.aborted) forward();
  else outer?.addEventListener('abort', forward, { once: true });
  const timer = setTimeout(() => ac.abort(attemptTimedOut(ms)), ms);
  try {
    return await base(input, { ...init, signal: ac.signal });
  } finally {
    clearTimeout(timer);
    outer?.removeEventListener('abort', forward);
  }
}
