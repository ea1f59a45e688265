/**
 * The run's request scope (rate-limit-fetch.ts `SCOPE_HEADER`) travels to its fetch as a header the
 * fetch takes off before the request leaves. SigV4 signs every header the Bedrock SDK hands it, so a
 * signed scope header would be missing on the wire and the signature refused (403): around the
 * signing step the scope travels beside the headers instead, put back just below it.
 */
import type { Middleware } from '@anthropic-ai/sdk';
import type { FetchLike } from '../../fetch-like.js';
import { SCOPE_HEADER } from '../../rate-limit-fetch.js';

const CARRIED = 'agentEvalsScope';

/** A client middleware (it runs before the SDK's backend signs): the scope header out of the headers, into a field beside them. */
export const scopeOutOfSignature: Middleware = (request, next) => {
  const id = request.headers.get(SCOPE_HEADER);
  if (id === null) return next(request);
  const headers = new Headers(request.headers);
  headers.delete(SCOPE_HEADER);
  const carried = { ...request, headers, [CARRIED]: id };
  return next(carried);
};

/** The client's fetch: the scope back into the headers for the run's fetch below, which takes it off before sending. */
export function scopeBackIn(fetch: FetchLike): FetchLike {
  return (input, init) => {
    const { [CARRIED]: id, ...rest } = (init ?? {}) as RequestInit & { [CARRIED]?: unknown };
    if (typeof id !== 'string') return fetch(input, init);
    const headers = new Headers(rest.headers);
    headers.set(SCOPE_HEADER, id);
    return fetch(input, { ...rest, headers });
  };
}
