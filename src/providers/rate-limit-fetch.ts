/**
 * The `fetch` the SDKs are given. Every HTTP attempt, the SDK's own retries included, takes a slot
 * of the endpoint's adaptive limiter, so when 429s cut the limit, retries wait behind it too. A 429
 * is retried here, through the limiter, after its retry-after: the SDK's retry loop would otherwise
 * resend from inside a slot it already holds and keep hitting the same wall. Other failures (5xx,
 * timeouts, resets) are left to the SDK's own retries.
 */

export type FetchLike = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

export interface RateLimitSink {
  onRateLimit(retryAfterMs?: number): void;
}

export interface SlotLimiter extends RateLimitSink {
  run<T>(fn: () => Promise<T>, signal?: AbortSignal): Promise<T>;
}

const MAX_WAIT_MS = 60_000;

/**
 * `retries` is the provider's retry budget: a 429 is retried that many times here, then handed to
 * the SDK marked `x-should-retry: false` so the attempts stay bounded by the same number.
 */
export function rateLimitedFetch(limiter: SlotLimiter, base: FetchLike = globalThis.fetch, retries = 3): FetchLike {
  return async (input, init) => {
    for (let attempt = 0; ; attempt++) {
      // The 429 is reported while its slot is still held, so the limiter sees what was in flight.
      const res = await limiter.run(async () => {
        const r = await base(input, init);
        if (r.status === 429) limiter.onRateLimit(retryAfterMs(r.headers));
        return r;
      }, init?.signal ?? undefined);
      if (res.status !== 429) return res;
      const hinted = retryAfterMs(res.headers);
      if (attempt >= retries) {
        const headers = new Headers(res.headers);
        headers.set('x-should-retry', 'false');
        return new Response(res.body, { status: res.status, statusText: res.statusText, headers });
      }
      await res.body?.cancel().catch(() => {});
      // Jitter spreads the retries of trials that were limited at the same moment.
      const wait = Math.min(MAX_WAIT_MS, hinted ?? 500 * 2 ** attempt) * (1 + Math.random() * 0.25);
      await sleep(wait, init?.signal ?? undefined);
    }
  };
}

/**
 * Per-request SDK options. Each request gets its own child signal: the SDKs add an abort listener
 * per request and never remove it, which on a shared signal (a trial's, the run's) piles up. The
 * child is unlinked from its parent when the request ends (`done`), so nothing accumulates.
 */
export function requestScope(signal: AbortSignal | undefined): { options: { signal: AbortSignal } | undefined; done(): void } {
  if (!signal) return { options: undefined, done() {} };
  const child = new AbortController();
  const forward = () => child.abort(signal.reason);
  if (signal.aborted) forward();
  else signal.addEventListener('abort', forward, { once: true });
  return { options: { signal: child.signal }, done: () => signal.removeEventListener('abort', forward) };
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** `retry-after-ms`, else `retry-after` (seconds or an HTTP date), in milliseconds. */
export function retryAfterMs(headers: Headers): number | undefined {
  const ms = Number.parseFloat(headers.get('retry-after-ms') ?? '');
  if (Number.isFinite(ms) && ms >= 0) return ms;
  const raw = headers.get('retry-after');
  if (!raw) return undefined;
  const seconds = Number.parseFloat(raw);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(raw);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}
