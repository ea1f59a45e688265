/**
 * The `fetch` the SDKs are given. Every HTTP attempt, the SDK's own retries included, takes a slot
 * of the endpoint's adaptive limiter, so when 429s cut the limit, retries wait behind it too. A 429
 * is retried here, through the limiter: the SDK's retry loop would otherwise resend from inside a
 * slot it already holds and keep hitting the same wall. The 429 pauses the whole endpoint for its
 * retry-after (or a backoff) and the retry is queued ahead of requests not sent yet, so it is the
 * first thing the provider sees once the pause ends. Other failures (5xx, timeouts, resets) are
 * left to the SDK's own retries.
 */

import type { LimitedCallOptions } from './adaptive-limit.js';
import { deadlinesOf, pauseDeadlines, type PausableDeadline } from '../core/deadline-pause.js';
import { fetchWithDeadline } from './attempt-deadline.js';
import type { FetchLike } from './fetch-like.js';

export interface RateLimitSink {
  onRateLimit(retryAfterMs?: number): void;
}

export interface SlotLimiter extends RateLimitSink {
  run<T>(fn: () => Promise<T>, options?: LimitedCallOptions): Promise<T>;
  /** Hold every request of the endpoint for `ms`. */
  pause(ms: number): void;
}

/** The longest single hold a retry-after can impose. */
const MAX_WAIT_MS = 60_000;

export interface RateLimitOptions {
  /** Retries of errors other than 429 stay the SDK's; 429s are bounded by `waitBudgetMs` instead. */
  retries?: number;
  /** Total time one request may spend held back by 429s before its 429 is reported (default 5 min). */
  waitBudgetMs?: number;
  /** Backoff after a 429 without retry-after: doubles per retry from this, capped at `maxBackoffMs`. */
  backoffMs?: number;
  /** Default: 8 × `backoffMs`, at most 4 s (with the default 0.5 s, 4 s). */
  maxBackoffMs?: number;
  /** Each HTTP attempt's own time limit; the time a request waits for its slot is not part of it. */
  attemptTimeoutMs?: number;
}

export const DEFAULT_RATE_LIMIT_WAIT_MS = 5 * 60_000;
export const DEFAULT_RATE_LIMIT_BACKOFF_MS = 500;
const MAX_BACKOFF_MS = 4_000;

/**
 * A 429 is retried here until the request has been held back for `waitBudgetMs` in all, however
 * many 429s that takes: a provider refusing a burst costs the run time, not trials. Then it is
 * handed to the SDK marked `x-should-retry: false`. While a request waits for its slot, the
 * deadlines of the work it serves (named by its request scope, see requestScope) are paused.
 */
export function rateLimitedFetch(limiter: SlotLimiter, base: FetchLike = globalThis.fetch, options: RateLimitOptions = {}): FetchLike {
  const budget = options.waitBudgetMs ?? DEFAULT_RATE_LIMIT_WAIT_MS;
  const backoff = options.backoffMs ?? DEFAULT_RATE_LIMIT_BACKOFF_MS;
  const maxBackoff = Math.max(backoff, options.maxBackoffMs ?? Math.min(MAX_BACKOFF_MS, backoff * 8));
  const attemptMs = options.attemptTimeoutMs;
  return async (input, rawInit) => {
    const { init, deadlines } = takeScope(rawInit);
    const signal = init?.signal ?? undefined;
    let firstLimitedAt: number | undefined;
    let attempt = 0;
    // Deadlines are paused only while the request really waits for its slot: with one free it
    // starts at once, and pausing would re-arm every deadline's timer twice per request for nothing.
    let resume: (() => void) | undefined;
    const onQueued = deadlines && (() => void (resume = pauseDeadlines(deadlines)));
    // The 429 is reported, and the pause set, while its slot is still held: the limiter sees
    // what was in flight, and nothing queued slips out before the pause.
    const checked = (r: Response): Response => {
      if (r.status === 429) {
        const hinted = retryAfterMs(r.headers);
        limiter.onRateLimit(hinted);
        // Jitter spreads the return of clients that were limited at the same moment.
        limiter.pause(Math.min(MAX_WAIT_MS, hinted ?? Math.min(maxBackoff, backoff * 2 ** attempt)) * (1 + Math.random() * 0.25));
      }
      return r;
    };
    const attemptOnce = (): Promise<Response> => {
      resume?.();
      return sendAttempt(base, input, init, attemptMs).then(checked);
    };
    const first: LimitedCallOptions = { signal, onQueued };
    for (; ; attempt++) {
      let res: Response;
      try {
        res = await limiter.run(attemptOnce, attempt === 0 ? first : { signal, retry: true, onQueued });
      } finally {
        resume?.();
        resume = undefined;
      }
      if (res.status !== 429) return res;
      firstLimitedAt ??= Date.now();
      if (Date.now() - firstLimitedAt >= budget) {
        const headers = new Headers(res.headers);
        headers.set('x-should-retry', 'false');
        return new Response(res.body, { status: res.status, statusText: res.statusText, headers });
      }
      await res.body?.cancel().catch(() => {});
    }
  };
}

/** One HTTP attempt under the caller's signal plus the attempt's own time limit, when one is set. */
function sendAttempt(base: FetchLike, input: Parameters<FetchLike>[0], init: RequestInit | undefined, ms: number | undefined): Promise<Response> {
  return ms === undefined ? base(input, init) : fetchWithDeadline(base, input, init, ms);
}

/**
 * The request header that names a request's scope (its deadlines) to the fetch. The SDKs hand the
 * fetch a signal of their own, not the caller's, so the scope travels as a per-request header (an
 * option both SDKs take) and is taken off again before the request leaves.
 */
export const SCOPE_HEADER = 'x-agent-evals-scope';
const scopes = new Map<string, readonly PausableDeadline[]>();
let lastScope = 0;

/** A request's scope: the SDK options that carry it, and `done` once the request has ended. */
export interface RequestScope {
  options: { signal: AbortSignal; headers?: Record<string, string> } | undefined;
  done(): void;
}

const NO_SCOPE: RequestScope = { options: undefined, done() {} };

/**
 * Per-request SDK options. Each request gets its own child signal: the SDKs add an abort listener
 * per request and never remove it, which on a shared signal (a trial's, the run's) piles up. The
 * child is unlinked from its parent when the request ends (`done`), so nothing accumulates. When
 * deadlines bound the work `signal` belongs to, the scope names them to the rate-limited fetch.
 */
export function requestScope(signal: AbortSignal | undefined): RequestScope {
  if (!signal) return NO_SCOPE;
  const child = new AbortController();
  const forward = () => child.abort(signal.reason);
  if (signal.aborted) forward();
  else signal.addEventListener('abort', forward, { once: true });
  const deadlines = deadlinesOf(signal);
  if (!deadlines) return { options: { signal: child.signal }, done: () => signal.removeEventListener('abort', forward) };
  const id = String(++lastScope);
  scopes.set(id, deadlines);
  return {
    options: { signal: child.signal, headers: { [SCOPE_HEADER]: id } },
    done: () => {
      signal.removeEventListener('abort', forward);
      scopes.delete(id);
    },
  };
}

/** Runs one SDK call with its request scope's options, the scope released when the call ends. */
export async function inRequestScope<T>(signal: AbortSignal | undefined, call: (options: RequestScope['options']) => Promise<T>): Promise<T> {
  const scope = requestScope(signal);
  try {
    return await call(scope.options);
  } finally {
    scope.done();
  }
}

/**
 * The request's deadlines, read off its headers, and the header removed (in place: the SDKs build a
 * Headers afresh for each of their attempts).
 */
function takeScope(init: RequestInit | undefined): { init: RequestInit | undefined; deadlines: readonly PausableDeadline[] | undefined } {
  const raw = init?.headers;
  if (raw === undefined) return { init, deadlines: undefined };
  const headers = raw instanceof Headers ? raw : new Headers(raw);
  const id = headers.get(SCOPE_HEADER);
  if (id === null) return { init, deadlines: undefined };
  headers.delete(SCOPE_HEADER);
  return { init: headers === raw ? init : { ...init, headers }, deadlines: scopes.get(id) };
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
