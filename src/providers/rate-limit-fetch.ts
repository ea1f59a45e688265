/**
 * A `fetch` for the SDKs' `fetch` option that tells a limiter about every 429 the SDK receives,
 * including the ones it goes on to retry: the SDK's retry loop is the only place that sees them.
 */

export type FetchLike = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

export interface RateLimitSink {
  onRateLimit(retryAfterMs?: number): void;
}

export function fetchReportingRateLimits(sink: RateLimitSink, base: FetchLike = globalThis.fetch): FetchLike {
  return async (input, init) => {
    const res = await base(input, init);
    if (res.status === 429) sink.onRateLimit(retryAfterMs(res.headers));
    return res;
  };
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
