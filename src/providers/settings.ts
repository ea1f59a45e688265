import type { AdaptiveLimiter } from './adaptive-limit.js';
import type { ErrorContext } from './errors.js';
import type { ModelCapabilities } from './capabilities.js';
import { specCapabilities, type ModelSpec } from './model-spec.js';
import { wireOf } from './registry.js';
import { DEFAULT_RATE_LIMIT_WAIT_MS, rateLimitedFetch, type FetchLike } from './rate-limit-fetch.js';
import { boundedNodeFetch } from './node-fetch.js';

/** SDK retries (so 4 attempts): the SDKs already back off and honour retry-after on 408/409/429/5xx. */
export const DEFAULT_MAX_RETRIES = 3;
/** Per attempt. The SDK default (10 min) would stall a whole eval run on one hung call. */
export const DEFAULT_TIMEOUT_MS = 60_000;
/** Anthropic requires max_tokens; OpenAI gets none unless asked. For a model that thinks only when asked: */
export const DEFAULT_ANTHROPIC_MAX_TOKENS = 4096;
/**
 * For a model that thinks by default or always: thinking tokens count against max_tokens (SDK 1.14
 * MessageCreateParams.thinking; Anthropic docs: What's new in Claude Haiku 5.5, "existing max_tokens
 * values still work, but thinking tokens count toward them", read 2026-12-01), so the answer (a
 * judge's JSON after its thinking) needs room beyond it. A ceiling, not a spend.
 */
export const DEFAULT_ANTHROPIC_THINKING_MAX_TOKENS = 16_000;

/** Room for thinking where the model thinks unasked, within the largest limit the model takes. */
export function defaultAnthropicMaxTokens(caps: ModelCapabilities): number {
  const thinks = caps.thinking === 'default-on' || caps.thinking === 'always';
  const wanted = thinks ? DEFAULT_ANTHROPIC_THINKING_MAX_TOKENS : DEFAULT_ANTHROPIC_MAX_TOKENS;
  return caps.maxOutputTokens !== undefined ? Math.min(wanted, caps.maxOutputTokens) : wanted;
}

/**
 * The output-token limit a call under `spec` gets when the call sets none: the spec's, else the
 * Anthropic wire's default (its API requires one); the OpenAI wire sends none.
 */
export function maxTokensOf(spec: ModelSpec): number | undefined {
  return spec.maxTokens ?? (wireOf(spec.provider) === 'anthropic' ? defaultAnthropicMaxTokens(specCapabilities(spec)) : undefined);
}

/** Everything an adapter needs, resolved once by createProvider. */
export interface ProviderSettings {
  spec: ModelSpec;
  apiKey: string;
  /** The env var the key came from, named in authentication errors. */
  apiKeyEnv: string;
  baseURL: string;
  limiter: AdaptiveLimiter;
  /** Underlying fetch (tests may inject one); 429s are reported to `limiter` either way. */
  fetch?: FetchLike;
}

/**
 * The options both SDK clients take: key, endpoint, retries, timeout, headers, and our `fetch`
 * (limiter-gated, over node:http).
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
    fetch: rateLimitedFetch(s.limiter, s.fetch ?? boundedNodeFetch(s.spec.maxResponseBytes), {
      waitBudgetMs: rateLimitWaitOf(s),
      attemptTimeoutMs: timeoutOf(s),
      ...(s.spec.rateLimitBackoffMs !== undefined ? { backoffMs: s.spec.rateLimitBackoffMs } : {}),
    }),
  };
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
