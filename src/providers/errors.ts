import type { ProviderId } from './types.js';
import { ProviderError, type ProviderErrorKind } from '../core/errors.js';
import { maskShapes } from './secret-shapes.js';

/** Remove credentials from text that may end up in a report: the key itself and anything key- or token-shaped. */
export function redactSecrets(text: string, secrets: readonly string[] = []): string {
  let out = text;
  for (const s of secrets) {
    if (s.length >= 4) out = out.split(s).join('[redacted]');
  }
  return maskShapes(out, '[redacted]');
}

export interface ErrorContext {
  provider: ProviderId;
  /** The environment variable the key came from: named in authentication errors. */
  keyEnv: string;
  /** Host only (never a full URL, which may carry credentials in userinfo or query). */
  host: string;
  attempts: number;
  timeoutMs: number;
  /** How long a call may be held back by 429s before its 429 is reported. */
  rateLimitWaitMs?: number;
  secrets: readonly string[];
}

interface SdkErrorLike {
  name?: unknown;
  message?: unknown;
  status?: unknown;
  requestID?: unknown;
  constructor?: { name?: string };
}

/** Map whatever an SDK call threw into a ProviderError with a scrubbed, actionable message. */
export function toProviderError(err: unknown, ctx: ErrorContext): ProviderError {
  if (err instanceof ProviderError) return err;
  const e = (typeof err === 'object' && err !== null ? err : {}) as SdkErrorLike;
  const cls = e.constructor?.name ?? '';
  const status = typeof e.status === 'number' ? e.status : undefined;
  const requestId = typeof e.requestID === 'string' ? e.requestID : undefined;
  const detail = redactSecrets(String(e.message ?? err), ctx.secrets);
  const p = ctx.provider;
  const make = (kind: ProviderErrorKind, message: string) => new ProviderError(p, kind, message, status, requestId);

  if (cls === 'APIUserAbortError' || e.name === 'AbortError') return make('aborted', `${p} request was aborted`);
  if (cls === 'APIConnectionTimeoutError') {
    return make('timeout', `${p} request timed out after ${ctx.timeoutMs} ms (${ctx.attempts} attempts)`);
  }
  if (cls === 'APIConnectionError') {
    return make('connection', `could not reach ${p} at ${ctx.host} after ${ctx.attempts} attempts: ${detail}`);
  }
  if (err instanceof SyntaxError) return make('malformed', `malformed response from ${p}: ${detail}`);
  if (status === undefined) return make('unknown', `${p} request failed: ${detail}`);
  if (status === 401) return make('auth', `authentication failed for ${p}: check ${ctx.keyEnv}`);
  if (status === 403) return make('permission', `permission denied by ${p} (403): ${detail}`);
  if (status === 404) return make('not_found', `${p} answered 404 (unknown model or endpoint?): ${detail}`);
  if (status === 429) {
    const waited = ctx.rateLimitWaitMs !== undefined ? `still rate limited by ${p} after waiting ${ctx.rateLimitWaitMs} ms` : `rate limited by ${p} after ${ctx.attempts} attempts`;
    return make('rate_limit', `${waited}: ${detail}`);
  }
  if (status >= 500) return make('server', `${p} server error after ${ctx.attempts} attempts: ${detail}`);
  return make('bad_request', `${p} rejected the request: ${detail}`);
}

/** A response that parsed as JSON but lacks what the wire format promises. */
export function malformed(provider: ProviderId, what: string): ProviderError {
  return new ProviderError(provider, 'malformed', `malformed response from ${provider}: ${what}`);
}
