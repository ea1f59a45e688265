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

/**
 * `body` passed on as it is read, with two watches: past `maxBytes` it fails with a
 * ResponseTooLargeError (the rest is cancelled, so the connection stops), and `onEnd` runs once when
 * it ends, fails or is cancelled (what an attempt's deadline waits for).
 */
export function watchedBody(body: ReadableStream<Uint8Array>, watch: { maxBytes?: number; onEnd?: () => void }): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  let total = 0;
  let ended = false;
  const end = () => {
    if (ended) return;
    ended = true;
    watch.onEnd?.();
  };
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (done) {
          end();
          return controller.close();
        }
        total += value.byteLength;
        if (watch.maxBytes !== undefined && total > watch.maxBytes) {
          end();
          await reader.cancel().catch(() => {});
          return controller.error(responseTooLarge(watch.maxBytes));
        }
        controller.enqueue(value);
      } catch (err) {
        end();
        controller.error(err);
      }
    },
    cancel(reason) {
      end();
      return reader.cancel(reason);
    },
  });
}

/** `res` with another body (same status and headers). */
export function withBody(res: Response, body: ReadableStream<Uint8Array>): Response {
  return new Response(body, { status: res.status, statusText: res.statusText, headers: res.headers });
}
