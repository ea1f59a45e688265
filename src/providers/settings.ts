import type { AdaptiveLimiter } from './adaptive-limit.js';
import type { ErrorContext } from './errors.js';
import type { ModelSpec } from './model-spec.js';
import type { FetchLike } from './fetch-like.js';
import { DEFAULT_RATE_LIMIT_WAIT_MS, rateLimitedFetch } from './rate-limit-fetch.js';
import { transportFetch } from './http-transport.js';
import { DEFAULT_MAX_RESPONSE_BYTES } from './body-limit.js';
import type { ProxySetting } from './proxy.js';

/** SDK retries (so 4 attempts): the SDKs already back off and honour retry-after on 408/409/429/5xx. */
export const DEFAULT_MAX_RETRIES = 3;
/** Per attempt. The SDK default (10 min) would stall a whole eval run on one hung call. */
export const DEFAULT_TIMEOUT_MS = 60_000;

/** Everything an adapter needs, resolved once by createProvider. */
export interface ProviderSettings {
  spec: ModelSpec;
  apiKey: string;
  /** The env var the key came from, named in authentication errors. */
  apiKeyEnv: string;
  baseURL: string;
  limiter: AdaptiveLimiter;
  /** The route of its requests: the `proxy` that applies (the spec's, else the run's) and the environment's proxy variables. */
  network: { proxy?: ProxySetting; env: NodeJS.ProcessEnv };
  /** Underlying fetch (tests may inject one); 429s are reported to `limiter` either way. */
  fetch?: FetchLike;
}

/**
 * The options both SDK clients take: key, endpoint, retries, timeout, headers, and our `fetch`
 * (limiter-gated, over the shared keep-alive dispatcher of its proxy route).
 */
export function sdkClientOptions(s: ProviderSettings) {
  return {
    apiKey: s.apiKey,
    baseURL: s.baseURL,
    maxRetries: maxRetriesOf(s),
    // Each attempt's own limit is enforced inside our fetch, once it has a slot; the SDK's timer
    // would also count the time spent held back by 429s, so it is only a backstop here.
    timeout: timeoutOf(s) + rateLimitWaitOf(s) + 1_000,
    ...(s.spec.headers ? { defaultHeaders: s.spec.headers } : {}),
    fetch: rateLimitedFetch(s.limiter, s.fetch ?? providerFetch(s), {
      waitBudgetMs: rateLimitWaitOf(s),
      attemptTimeoutMs: timeoutOf(s),
      ...(s.spec.rateLimitBackoffMs !== undefined ? { backoffMs: s.spec.rateLimitBackoffMs } : {}),
    }),
  };
}

/**
 * The transport of a provider's calls: undici's fetch over its route, bodies capped at the spec's
 * `maxResponseBytes`; a URL for which `streamed` says yes gets its 200 body uncapped (a batch's results).
 */
export function providerFetch(s: ProviderSettings, streamed?: (url: URL) => boolean): FetchLike {
  return transportFetch({ ...s.network, maxBytes: s.spec.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES, ...(streamed ? { streamed } : {}) });
}

export function maxRetriesOf(s: ProviderSettings): number {
  return s.spec.maxRetries ?? DEFAULT_MAX_RETRIES;
}

export function timeoutOf(s: ProviderSettings): number {
  return s.spec.timeoutMs ?? DEFAULT_TIMEOUT_MS;
}

export function rateLimitWaitOf(s: ProviderSettings): number {
  return s.spec.rateLimitWaitMs ?? DEFAULT_RATE_LIMIT_WAIT_MS;
}

export function errorContext(s: ProviderSettings): ErrorContext {
  return {
    provider: s.spec.provider,
    keyEnv: s.apiKeyEnv,
    host: hostOf(s.baseURL),
    attempts: maxRetriesOf(s) + 1,
    timeoutMs: timeoutOf(s),
    rateLimitWaitMs: rateLimitWaitOf(s),
    secrets: [s.apiKey, ...Object.values(s.spec.headers ?? {})],
  };
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return '(invalid base URL)';
  }
}
