import { afterEach, describe, expect, it, vi } from 'vitest';
import { AdaptiveLimiter, DEFAULT_MAX_CONCURRENCY, ProviderLimiters } from '../../src/providers/adaptive-limit.js';
import { rateLimitedFetch, requestScope, retryAfterMs } from '../../src/providers/rate-limit-fetch.js';
import { bindDeadline } from '../../src/core/deadline-pause.js';

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

afterEach(() => void vi.useRealTimers());

const tick = () => new Promise((r) => setTimeout(r, 0));

function clock(start = 1_000_000) {
  let t = start;
  return { now: () => t, advance: (ms: number) => (t += ms) };
}

describe('AdaptiveLimiter', () => {
  it('runs at most `current` tasks at once, in order', async () => {
    const limiter = new AdaptiveLimiter({ max: 2 });
    const gates = [deferred(), deferred(), deferred()];
    const started: number[] = [];
    const runs = gates.map((g, i) =>
      limiter.run(async () => {
        started.push(i);
        await g.promise;
        return i;
      }),
    );
    await tick();
    expect(started).toEqual([0, 1]);
    expect(limiter.inFlight).toBe(2);
    expect(limiter.pending).toBe(1);
    gates[0]!.resolve();
    await tick();
    expect(started).toEqual([0, 1, 2]);
    gates[1]!.resolve();
    gates[2]!.resolve();
    expect(await Promise.all(runs)).toEqual([0, 1, 2]);
    expect(limiter.inFlight).toBe(0);
  });

  it('passes failures through and frees the slot', async () => {
    const limiter = new AdaptiveLimiter({ max: 1 });
    await expect(limiter.run(() => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    await expect(
      limiter.run(() => {
        throw new Error('sync boom');
      }),
    ).rejects.toThrow('sync boom');
    expect(await limiter.run(async () => 'next')).toBe('next');
  });

  it('starts a call with a free slot at once, with no abort listener; says when a call has to wait', async () => {
    const limiter = new AdaptiveLimiter({ max: 1 });
    const ac = new AbortController();
    const added = vi.spyOn(ac.signal, 'addEventListener');
    const queued: string[] = [];
    const gate = deferred();
    let startedFirst = false;
    const first = limiter.run(
      async () => {
        startedFirst = true;
        await gate.promise;
        return 'first';
      },
      { signal: ac.signal, onQueued: () => queued.push('first') },
    );
    // Started before run() returned: no queue entry, nothing listening on its signal.
    expect(startedFirst).toBe(true);
    expect(added).not.toHaveBeenCalled();
    const second = limiter.run(async () => 'second', { signal: ac.signal, onQueued: () => queued.push('second') });
    expect(queued).toEqual(['second']);
    expect(added).toHaveBeenCalledTimes(1); // the waiting call can still be dropped by its signal
    gate.resolve();
    expect(await Promise.all([first, second])).toEqual(['first', 'second']);
    expect(limiter.inFlight).toBe(0);
  });

  it('halves on a rate limit (once per burst), never below 1', () => {
    const c = clock();
    const limiter = new AdaptiveLimiter({ max: 8, now: c.now, decreaseIntervalMs: 1000 });
    limiter.onRateLimit();
    limiter.onRateLimit(); // same burst
    expect(limiter.current).toBe(4);
    c.advance(1000);
    limiter.onRateLimit();
    expect(limiter.current).toBe(2);
    for (let i = 0; i < 5; i++) {
      c.advance(1000);
      limiter.onRateLimit();
    }
    expect(limiter.current).toBe(1);
    expect(limiter.rateLimits).toBe(8);
  });

  it('grows back by one per N successes after the cooldown, up to the max', () => {
    const c = clock();
    const limiter = new AdaptiveLimiter({ max: 4, now: c.now, cooldownMs: 5000, successesPerStep: 3 });
    limiter.onRateLimit();
    expect(limiter.current).toBe(2);
    for (let i = 0; i < 10; i++) limiter.onSuccess(); // still cooling down
    expect(limiter.current).toBe(2);
    c.advance(5000);
    limiter.onSuccess();
    limiter.onSuccess();
    expect(limiter.current).toBe(2);
    limiter.onSuccess();
    expect(limiter.current).toBe(3);
    for (let i = 0; i < 30; i++) limiter.onSuccess();
    expect(limiter.current).toBe(4);
  });

  it('holds the cooldown at least as long as the server asked', () => {
    const c = clock();
    const limiter = new AdaptiveLimiter({ max: 2, now: c.now, cooldownMs: 100, successesPerStep: 1 });
    limiter.onRateLimit(10_000);
    c.advance(5_000);
    limiter.onSuccess();
    expect(limiter.current).toBe(1);
    c.advance(5_000);
    limiter.onSuccess();
    expect(limiter.current).toBe(2);
  });

  it('lets a halved limiter hold new tasks back until in-flight ones finish', async () => {
    const limiter = new AdaptiveLimiter({ max: 2 });
    const a = deferred();
    const b = deferred();
    const started: string[] = [];
    const ra = limiter.run(async () => (started.push('a'), a.promise));
    const rb = limiter.run(async () => (started.push('b'), b.promise));
    limiter.onRateLimit();
    const rc = limiter.run(async () => void started.push('c'));
    a.resolve();
    await tick();
    expect(started).toEqual(['a', 'b']); // b still holds the only slot
    b.resolve();
    await Promise.all([ra, rb, rc]);
    expect(started).toEqual(['a', 'b', 'c']);
  });

  it('starts nothing during a pause, then serves rate-limited retries before new requests', async () => {
    vi.useFakeTimers();
    const limiter = new AdaptiveLimiter({ max: 1 });
    const started: string[] = [];
    limiter.pause(60);
    const runs = [
      limiter.run(async () => void started.push('fresh-1')),
      limiter.run(async () => void started.push('retry-1'), { retry: true }),
      limiter.run(async () => void started.push('fresh-2')),
      limiter.run(async () => void started.push('retry-2'), { retry: true }),
    ];
    await vi.advanceTimersByTimeAsync(59);
    expect(started).toEqual([]);
    expect(limiter.pending).toBe(4);
    await vi.advanceTimersByTimeAsync(1);
    await Promise.all(runs);
    expect(started).toEqual(['retry-1', 'retry-2', 'fresh-1', 'fresh-2']);
  });

  it('a later, longer pause extends the hold; a shorter one does not cut it', async () => {
    vi.useFakeTimers();
    const limiter = new AdaptiveLimiter({ max: 2 });
    const started: string[] = [];
    limiter.pause(40);
    limiter.pause(10);
    const first = limiter.run(async () => void started.push('first'));
    await vi.advanceTimersByTimeAsync(39);
    expect(started).toEqual([]); // the shorter pause did not cut the longer one
    await vi.advanceTimersByTimeAsync(1);
    await first;
    limiter.pause(30);
    const second = limiter.run(async () => void started.push('second'));
    limiter.pause(80);
    await vi.advanceTimersByTimeAsync(79);
    expect(started).toEqual(['first']); // the later, longer pause holds it
    await vi.advanceTimersByTimeAsync(1);
    await second;
    expect(started).toEqual(['first', 'second']);
  });

  it('drops a queued task whose signal aborts, without running it', async () => {
    const limiter = new AdaptiveLimiter({ max: 1 });
    const gate = deferred();
    const first = limiter.run(() => gate.promise);
    const ctrl = new AbortController();
    let ran = false;
    const queued = limiter.run(async () => void (ran = true), { signal: ctrl.signal });
    ctrl.abort();
    await expect(queued).rejects.toMatchObject({ name: 'AbortError' });
    gate.resolve();
    await first;
    expect(ran).toBe(false);
    expect(limiter.pending).toBe(0);
  });
});

describe("ProviderLimiters (one run's limiters)", () => {
  it('shares one limiter per key and lets a stricter caller lower its max', () => {
    const limiters = new ProviderLimiters();
    const a = limiters.for('openai https://api.openai.com/v1', 8);
    const b = limiters.for('openai https://api.openai.com/v1', 3);
    const c = limiters.for('openai https://api.openai.com/v1', 20);
    expect(a).toBe(b);
    expect(b).toBe(c);
    expect(a.max).toBe(3);
    expect(limiters.for('anthropic https://api.anthropic.com')).not.toBe(a);
  });

  it("caps every limiter at the run's concurrency, one first made at grade time too; the next run starts fresh", () => {
    const run = new ProviderLimiters(3);
    const before = run.for('openai http://before', 8);
    expect(before.max).toBe(3);
    expect(run.for('openai http://judge-at-grade-time').max).toBe(3);
    expect(run.for('openai http://own-lower-max', 2).max).toBe(2);
    const next = new ProviderLimiters();
    expect(next.for('openai http://before')).not.toBe(before);
    expect(next.for('openai http://next-run').max).toBe(DEFAULT_MAX_CONCURRENCY);
  });
});

describe('rateLimitedFetch', () => {
  it('reports every 429 with its retry-after, and passes responses through', async () => {
    const seen: (number | undefined)[] = [];
    const responses = [
      new Response('{}', { status: 429, headers: { 'retry-after': '2' } }),
      new Response('{}', { status: 429, headers: { 'retry-after-ms': '150' } }),
      new Response('{"ok":true}', { status: 200 }),
    ];
    // No retries of its own here, so each 429 comes back to the caller as it was answered.
    const limiter = { run: <T>(fn: () => Promise<T>) => fn(), onRateLimit: (ms?: number) => void seen.push(ms), pause: () => {} };
    const fetch = rateLimitedFetch(limiter, async () => responses.shift()!, { waitBudgetMs: 0 });
    expect((await fetch('http://x')).status).toBe(429);
    expect((await fetch('http://x')).status).toBe(429);
    expect(await (await fetch('http://x')).json()).toEqual({ ok: true });
    expect(seen).toEqual([2000, 150]);
  });

  it('pauses the endpoint for the retry-after and queues the retry ahead of new requests', async () => {
    vi.useFakeTimers();
    const limiter = new AdaptiveLimiter({ max: 1 });
    const order: string[] = [];
    let first = true;
    const fetch = rateLimitedFetch(limiter, async (input) => {
      order.push(String(input));
      if (input === 'http://a' && first) {
        first = false;
        return new Response('{}', { status: 429, headers: { 'retry-after-ms': '50' } });
      }
      return new Response('{}', { status: 200 });
    });
    const a = fetch('http://a');
    await vi.advanceTimersByTimeAsync(10); // a has been answered 429 and is waiting
    const b = fetch('http://b');
    await vi.advanceTimersByTimeAsync(30); // still inside the 50 ms pause: nothing new is sent
    expect(order).toEqual(['http://a']);
    await vi.advanceTimersByTimeAsync(1_000);
    expect((await a).status).toBe(200);
    expect((await b).status).toBe(200);
    expect(order).toEqual(['http://a', 'http://a', 'http://b']);
    expect(limiter.rateLimits).toBe(1);
  });

  it('retries 429s without retry-after until the wait budget is spent, not for a number of attempts', async () => {
    const limiter = new AdaptiveLimiter({ max: 4 });
    let calls = 0;
    const fetch = rateLimitedFetch(limiter, async () => (++calls <= 40 ? new Response('{}', { status: 429 }) : new Response('{}', { status: 200 })), { backoffMs: 1, maxBackoffMs: 2 });
    expect((await fetch('http://x')).status).toBe(200);
    expect(calls).toBe(41);

    // A spent budget hands the 429 to the SDK, marked as not to be retried there either.
    calls = 0;
    const tight = rateLimitedFetch(limiter, async () => (++calls, new Response('{}', { status: 429 })), { backoffMs: 5, waitBudgetMs: 20 });
    const res = await tight('http://x');
    expect(res.status).toBe(429);
    expect(res.headers.get('x-should-retry')).toBe('false');
    expect(calls).toBeGreaterThan(1);
  });

  it("pauses the caller's deadlines only while its request waits for a slot", async () => {
    const limiter = new AdaptiveLimiter({ max: 1 });
    const gate = deferred();
    const sent: Headers[] = [];
    const fetch = rateLimitedFetch(limiter, async (input, init) => {
      sent.push(new Headers(init?.headers));
      if (input === 'http://slow') await gate.promise;
      return new Response('{}', { status: 200 });
    });
    const events: string[] = [];
    const never = new AbortController().signal;
    // A call made under a deadline, as a provider makes it: its scope names the deadline to the fetch.
    const call = (url: string, name: string) => {
      const signal = new AbortController().signal;
      bindDeadline(signal, never, { pause: () => void events.push(`${name} paused`), resume: () => void events.push(`${name} resumed`) });
      const scope = requestScope(signal);
      return fetch(url, { signal: scope.options!.signal, headers: new Headers(scope.options!.headers) }).finally(scope.done);
    };
    const slow = call('http://slow', 'slow');
    const queued = call('http://queued', 'queued');
    // The first request had its slot at once: its deadline never stopped. The second waits for it.
    expect(events).toEqual(['queued paused']);
    gate.resolve();
    await Promise.all([slow, queued]);
    expect(events).toEqual(['queued paused', 'queued resumed']);
    // The scope's header is taken off before a request leaves.
    expect(sent.flatMap((h) => [...h.keys()].filter((k) => k.startsWith('x-agent-evals')))).toEqual([]);
  });

  it('caps the backoff without retry-after', async () => {
    const pauses: number[] = [];
    let calls = 0;
    const limiter = { run: <T>(fn: () => Promise<T>) => fn(), onRateLimit: () => {}, pause: (ms: number) => void pauses.push(ms) };
    const fetch = rateLimitedFetch(limiter, async () => (++calls <= 12 ? new Response('{}', { status: 429 }) : new Response('{}', { status: 200 })), { backoffMs: 100, maxBackoffMs: 400 });
    expect((await fetch('http://x')).status).toBe(200);
    expect(pauses).toHaveLength(12);
    expect(Math.max(...pauses)).toBeLessThanOrEqual(400 * 1.25);
    expect(pauses[11]).toBeGreaterThanOrEqual(400);
  });

  it('reads retry-after as seconds or an HTTP date', () => {
    expect(retryAfterMs(new Headers({ 'retry-after': '0.5' }))).toBe(500);
    expect(retryAfterMs(new Headers())).toBeUndefined();
    const inAMinute = new Date(Date.now() + 60_000).toUTCString();
    expect(retryAfterMs(new Headers({ 'retry-after': inAMinute }))).toBeGreaterThan(50_000);
  });
});
