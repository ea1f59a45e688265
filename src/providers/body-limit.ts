import { ResponseTooLargeError } from '../core/errors.js';

/**
 * Response bodies are read up to a cap: an endpoint that streams without end (or answers a huge
 * body) must fail its call, not drive the process out of memory.
 */
export const DEFAULT_MAX_RESPONSE_BYTES = 16 * 1024 * 1024;

/** The error for a body past `maxBytes`, naming the cap. */
export function responseTooLarge(maxBytes: number): ResponseTooLargeError {
  return new ResponseTooLargeError(maxBytes, `response body larger than ${formatBytes(maxBytes)} (maxResponseBytes: ${maxBytes}): the rest was not read`);
}

function formatBytes(n: number): string {
  return n >= 1024 * 1024 && n % (1024 * 1024) === 0 ? `${n / (1024 * 1024)} MB` : `${n} bytes`;
}

/** The body as text, or a ResponseTooLargeError as soon as more than `maxBytes` have arrived (the stream is cancelled). */
export async function readTextBounded(res: Response, maxBytes: number = DEFAULT_MAX_RESPONSE_BYTES): Promise<string> {
  if (!res.body) return '';
  const reader = res.body.getReader() as ReadableStreamDefaultReader<Uint8Array>;
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => {});
      throw responseTooLarge(maxBytes);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}
