import { watchedBody, withBody } from './body-limit.js';
import type { FetchLike } from './fetch-like.js';

/** The error of an attempt past its time limit: a TimeoutError, as the reason of an abort. */
export function attemptTimedOut(ms: number): DOMException {
  return new DOMException(`attempt timed out after ${ms} ms`, 'TimeoutError');
}

/**
 * Runs one HTTP attempt of any `fetch` under the caller's signal plus the attempt's own time limit,
 * through an abort signal of its own, until the response's body has been read to its end: a reply
 * whose headers came in time but whose body stalls fails too. The SDK's own `timeout` cannot be the
 * limit: it also counts the time a request waits for its limiter slot. (By hand, not
 * AbortSignal.timeout: its timer would outlive every quick call by a minute.)
 */
export async function fetchWithDeadline(base: FetchLike, input: Parameters<FetchLike>[0], init: RequestInit | undefined, ms: number): Promise<Response> {
  const ac = new AbortController();
  const outer = init?.signal ?? undefined;
  const forward = () => ac.abort(outer?.reason);
  if (outer?.aborted) forward();
  else outer?.addEventListener('abort', forward, { once: true });
  const timer = setTimeout(() => ac.abort(attemptTimedOut(ms)), ms);
  const done = () => {
    clearTimeout(timer);
    outer?.removeEventListener('abort', forward);
  };
  let res: Response;
  try {
    res = await base(input, { ...init, signal: ac.signal });
  } catch (err) {
    done();
    throw err;
  }
  if (!res.body) {
    done();
    return res;
  }
  return withBody(res, watchedBody(res.body, { onEnd: done }));
}
