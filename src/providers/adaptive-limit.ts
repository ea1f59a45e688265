/**
 * Adaptive (AIMD) concurrency per provider endpoint: start at the configured maximum, halve on a
 * rate limit, then win slots back one at a time as calls succeed. A fixed limit either wastes
 * quota or keeps hammering a provider that is already answering 429.
 *
 * After a 429 the endpoint can also be paused for the server's retry-after: nothing new starts
 * until then (it would only collect more 429s), and the rate-limited requests go first when it
 * ends. Without that, a retry lands at a random point among fresh requests and can lose every
 * attempt of its budget to a provider that keeps refusing a share of the traffic.
 */

import type { ProxySetting } from './proxy.js';

export interface AdaptiveLimiterOptions {
  /** Ceiling, and the starting level. */
  max: number;
  /** After a rate limit, no growth for this long (or the server's retry-after, if longer). */
  cooldownMs?: number;
  /** Successes (after the cooldown) needed to add one slot. */
  successesPerStep?: number;
  /** 429s closer together than this count as one burst and halve only once. */
  decreaseIntervalMs?: number;
  now?: () => number;
}

/**
 * Per-endpoint ceiling when a model spec sets none: high enough that the run's own --concurrency
 * is the bound in normal operation. A run's limiters start no higher than its own --concurrency
 * (see ProviderLimiters).
 */
export const DEFAULT_MAX_CONCURRENCY = 100;

interface Waiter {
  start: () => void;
  reject: (err: unknown) => void;
}

/** How one call waits its turn at a limiter (`AdaptiveLimiter.run`). */
export interface LimitedCallOptions {
  signal?: AbortSignal;
  /** A retry of a rate-limited request: served before requests that have not been sent yet. */
  retry?: boolean;
  /** Called (synchronously, in the caller's context) when the call cannot start at once and waits its turn. */
  onQueued?: () => void;
}

export class AdaptiveLimiter {
  #max: number;
  #current: number;
  #inFlight = 0;
  #successes = 0;
  #cooldownUntil = 0;
  #lastDecreaseAt = Number.NEGATIVE_INFINITY;
  #rateLimits = 0;
  #pausedUntil = 0;
  #wake: ReturnType<typeof setTimeout> | undefined;
  readonly #retries: Waiter[] = [];
  readonly #queue: Waiter[] = [];
  readonly #cooldownMs: number;
  readonly #successesPerStep: number;
  readonly #decreaseIntervalMs: number;
  readonly #now: () => number;

  constructor(opts: AdaptiveLimiterOptions) {
    this.#max = Math.max(1, Math.floor(opts.max));
    this.#current = this.#max;
    this.#cooldownMs = opts.cooldownMs ?? 10_000;
    this.#successesPerStep = Math.max(1, opts.successesPerStep ?? 5);
    this.#decreaseIntervalMs = opts.decreaseIntervalMs ?? 1_000;
    this.#now = opts.now ?? Date.now;
  }

  get max(): number {
    return this.#max;
  }
  /** Tasks allowed in flight right now. */
  get current(): number {
    return this.#current;
  }
  get inFlight(): number {
    return this.#inFlight;
  }
  get pending(): number {
    return this.#retries.length + this.#queue.length;
  }
  /** Rate limits reported so far (each 429 response, retried or not). */
  get rateLimits(): number {
    return this.#rateLimits;
  }

  /** Lower the ceiling (never raise it: the strictest caller sharing this limiter wins). */
  lowerMax(max: number): void {
    const m = Math.max(1, Math.floor(max));
    if (m >= this.#max) return;
    this.#max = m;
    this.#current = Math.min(this.#current, m);
  }

  /**
   * Run `fn` once a slot is free. A queued task whose signal aborts is dropped without running.
   * With a slot free and no one waiting, `fn` starts at once: no queue entry, no abort listener
   * (this runs around every HTTP attempt of the run). `onQueued` is called only when the task has
   * to wait.
   */
  run<T>(fn: () => Promise<T>, options: LimitedCallOptions = {}): Promise<T> {
    const { signal } = options;
    if (signal?.aborted) return Promise.reject(abortReason(signal));
    if (this.#inFlight < this.#current && this.pending === 0 && this.#pausedUntil <= this.#now()) return this.#start(fn);
    const queue = options.retry ? this.#retries : this.#queue;
    let started = false;
    const queued = new Promise<T>((resolve, reject) => {
      const waiter: Waiter = {
        start: () => {
          started = true;
          signal?.removeEventListener('abort', onAbort);
          // From inside #drain's loop: `fn` runs a tick later, never re-entering the loop.
          this.#start(() => Promise.resolve().then(fn)).then(resolve, reject);
        },
        reject,
      };
      const onAbort = () => {
        const i = queue.indexOf(waiter);
        if (i >= 0) {
          queue.splice(i, 1);
          reject(abortReason(signal!));
        }
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      queue.push(waiter);
    });
    this.#drain();
    if (!started) options.onQueued?.();
    return queued;
  }

  /** Holds a slot while `fn` runs; the slot is freed (and the queue drained) as it settles. */
  #start<T>(fn: () => Promise<T>): Promise<T> {
    this.#inFlight++;
    let work: Promise<T>;
    try {
      work = fn();
    } catch (err) {
      work = Promise.reject(err);
    }
    return work.then(this.#succeeded, this.#failed);
  }

  // Made once per limiter, not per call: this runs around every HTTP attempt of the run.
  readonly #succeeded = <T>(v: T): T => {
    this.#settled(true);
    return v;
  };
  readonly #failed = (err: unknown): never => {
    this.#settled(false);
    throw err;
  };

  #settled(ok: boolean): void {
    this.#inFlight--;
    if (ok) this.onSuccess();
    this.#drain();
  }

  /** A call was rate limited: halve (once per burst) and hold growth for the cooldown. */
  onRateLimit(retryAfterMs?: number): void {
    this.#rateLimits++;
    const now = this.#now();
    this.#successes = 0;
    this.#cooldownUntil = Math.max(this.#cooldownUntil, now + Math.max(this.#cooldownMs, retryAfterMs ?? 0));
    // A 429 that comes after the server's own retry-after has passed is new evidence, not the same
    // burst: with short retry-afters the limit must be able to fall faster than once a second.
    const interval = Math.min(this.#decreaseIntervalMs, Math.max(retryAfterMs ?? this.#decreaseIntervalMs, 10));
    if (now - this.#lastDecreaseAt >= interval) {
      this.#current = Math.max(1, Math.floor(this.#current / 2));
      this.#lastDecreaseAt = now;
    }
  }

  /** Start nothing new for `ms` (an endpoint-wide hold; overlapping pauses end at the latest). */
  pause(ms: number): void {
    if (!(ms > 0)) return;
    this.#pausedUntil = Math.max(this.#pausedUntil, this.#now() + ms);
  }

  /** A call succeeded: after the cooldown, every `successesPerStep` successes add one slot. */
  onSuccess(): void {
    if (this.#current >= this.#max || this.#now() < this.#cooldownUntil) return;
    if (++this.#successes >= this.#successesPerStep) {
      this.#successes = 0;
      this.#current++;
      this.#drain();
    }
  }

  #drain(): void {
    const wait = this.#pausedUntil - this.#now();
    if (wait > 0) {
      // Queued work needs a wake-up at the end of the pause: nothing else may come to drain it.
      if (this.pending > 0 && !this.#wake) {
        this.#wake = setTimeout(() => {
          this.#wake = undefined;
          this.#drain();
        }, wait);
      }
      return;
    }
    while (this.#inFlight < this.#current) {
      const next = this.#retries.shift() ?? this.#queue.shift();
      if (!next) return;
      next.start();
    }
  }
}

function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('The operation was aborted.', 'AbortError');
}

/**
 * The limiters of one run, one per provider endpoint (provider plus base URL), so every target
 * and judge of the run on that endpoint backs off together. Made per run from its settings and
 * handed down to whoever builds a provider; nothing is shared between two runs in one process.
 */
export class ProviderLimiters {
  readonly #byKey = new Map<string, AdaptiveLimiter>();
  readonly #cap: number;
  /**
   * The run's `proxy` setting (the config's): the route of every endpoint whose model spec (or HTTP
   * target) sets none. Here because this is what the run hands every provider and target it builds.
   */
  readonly proxy: ProxySetting | undefined;

  /**
   * `cap` is the run's concurrency: more could never be in flight, so every limiter starts at most
   * there, including one first made at grade time (a judge named only inside a `check()`, an agent
   * judge's own model), and the first burst of 429s halves what can really be in flight.
   */
  constructor(cap: number = Number.POSITIVE_INFINITY, network: { proxy?: ProxySetting | undefined } = {}) {
    this.#cap = cap;
    this.proxy = network.proxy;
  }

  /**
   * The endpoint's limiter. The first caller's `max` (or the default), lowered to the run's cap,
   * creates it; a later, lower `max` lowers it.
   */
  for(key: string, max?: number): AdaptiveLimiter {
    let limiter = this.#byKey.get(key);
    if (!limiter) {
      limiter = new AdaptiveLimiter({ max: Math.min(max ?? DEFAULT_MAX_CONCURRENCY, this.#cap) });
      this.#byKey.set(key, limiter);
    } else if (max !== undefined) {
      limiter.lowerMax(max);
    }
    return limiter;
  }

  /** The endpoint's limiter if one was made (what a run's report or a test inspects). */
  get(key: string): AdaptiveLimiter | undefined {
    return this.#byKey.get(key);
  }
}
