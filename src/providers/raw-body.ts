import type { CompletionResponse } from './types.js';

/**
 * `res` with `raw`, the response body as JSON, made when first read. It is kept for debugging and
 * read rarely; serializing every reply again on every call cost CPU on the hot path. Enumerable, so
 * spreading or serializing the response still carries it.
 */
export function withRawBody(res: CompletionResponse, body: unknown): CompletionResponse {
  let raw: string | undefined;
  return Object.defineProperty(res, 'raw', { get: () => (raw ??= JSON.stringify(body)), enumerable: true, configurable: true });
}
