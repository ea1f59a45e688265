import { DEFAULT_MAX_RESPONSE_BYTES } from './body-limit.js';

/**
 * Default cap on one line of a batch result file, when the model spec sets no `maxResponseBytes`:
 * four times a live reply's default cap, since a line wraps one reply in its envelope.
 */
export const DEFAULT_MAX_LINE_BYTES = 4 * DEFAULT_MAX_RESPONSE_BYTES;

/**
 * A JSONL body read line by line as it arrives: a batch's result file can be far bigger than any
 * one reply (hundreds of MB), so it is never held whole; only a line longer than `maxLineBytes`
 * is refused, naming the cap. Linear in a line's length (each chunk is scanned once, a line joined once).
 */
export async function* jsonlLines(body: ReadableStream<Uint8Array> | null, maxLineBytes: number = DEFAULT_MAX_LINE_BYTES): AsyncGenerator<string> {
  if (!body) return;
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      let chunk = Buffer.from(value.buffer, value.byteOffset, value.byteLength);
      for (let nl = chunk.indexOf(10); nl !== -1; nl = chunk.indexOf(10)) {
        const line = pendingBytes === 0 ? chunk.subarray(0, nl) : Buffer.concat([...pending, chunk.subarray(0, nl)]);
        pending = [];
        pendingBytes = 0;
        chunk = chunk.subarray(nl + 1);
        if (line.length > maxLineBytes) throw lineTooLong(maxLineBytes);
        const text = decoder.decode(line);
        if (text.trim()) yield text;
      }
      pendingBytes += chunk.length;
      if (pendingBytes > maxLineBytes) throw lineTooLong(maxLineBytes);
      if (chunk.length > 0) pending.push(Buffer.from(chunk));
    }
    const last = decoder.decode(Buffer.concat(pending));
    if (last.trim()) yield last;
  } finally {
    await reader.cancel().catch(() => {});
  }
}

function lineTooLong(max: number): Error {
  return new Error(`a line of the batch result file is longer than ${max} bytes (maxResponseBytes: ${max}): the file was not read further`);
}
