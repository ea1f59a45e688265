import http from 'node:http';
import https from 'node:https';
import { Readable } from 'node:stream';
import type { FetchLike } from './rate-limit-fetch.js';
import { DEFAULT_MAX_RESPONSE_BYTES, responseTooLarge } from './body-limit.js';

// Keep-alive pools shared by every provider: eval runs make thousands of small calls to a few hosts.
const agents = { 'http:': new http.Agent({ keepAlive: true, maxSockets: 256 }), 'https:': new https.Agent({ keepAlive: true, maxSockets: 256 }) };

/**
 * A `fetch` for the SDKs over node:http with keep-alive. Node 20's built-in fetch costs about twice
 * the CPU per call (measured in bench/), and at eval-run rates that CPU, not the network, bounds
 * the wall time. Provider calls are small JSON exchanges without streaming, so the body is read
 * whole, up to `maxBytes`: past that the request is destroyed at once and the response's body
 * fails with a ResponseTooLargeError (a body error, so the SDK reports it instead of retrying).
 * Anything this does not handle (a Request object, other protocols) goes to global fetch.
 * A URL for which `streamed` says yes (a batch's result file, far bigger than one reply) gets its
 * body as a stream, uncapped here: its reader reads it line by line under its own bounds.
 */
export const boundedNodeFetch =
  (maxBytes: number = DEFAULT_MAX_RESPONSE_BYTES, streamed?: (url: URL) => boolean): FetchLike =>
  (input, init = {}) => {
    const url = typeof input === 'string' ? new URL(input) : input instanceof URL ? input : undefined;
    const agent = url ? agents[url.protocol as keyof typeof agents] : undefined;
    if (!url || !agent || (init.body !== undefined && init.body !== null && typeof init.body !== 'string')) return globalThis.fetch(input, init);
    return new Promise<Response>((resolve, reject) => {
      const headers: Record<string, string> = {};
      new Headers(init.headers).forEach((value, key) => {
        headers[key] = value;
      });
      const request = (url.protocol === 'https:' ? https : http).request(url, { method: init.method ?? 'GET', headers, agent, ...(init.signal ? { signal: init.signal } : {}) }, (res) => {
        const chunks: Buffer[] = [];
        let total = 0;
        const out = new Headers();
        for (const [key, value] of Object.entries(res.headers)) if (value !== undefined) out.set(key, Array.isArray(value) ? value.join(', ') : value);
        const status = res.statusCode ?? 500;
        if (streamed?.(url) && status === 200) {
          return resolve(new Response(Readable.toWeb(res) as ReadableStream<Uint8Array>, { status, statusText: res.statusMessage ?? '', headers: out }));
        }
        res.on('data', (c: Buffer) => {
          total += c.length;
          if (total <= maxBytes) return void chunks.push(c);
          chunks.length = 0;
          res.removeAllListeners('data');
          request.destroy();
          const tooLarge = responseTooLarge(maxBytes);
          const body = new ReadableStream({ start: (controller) => controller.error(tooLarge) });
          resolve(new Response(body, { status, statusText: res.statusMessage ?? '', headers: out }));
        });
        res.on('error', reject);
        res.on('end', () => {
          // 204/304 may not carry a body in a Response.
          const body = status === 204 || status === 304 ? null : Buffer.concat(chunks);
          resolve(new Response(body, { status, statusText: res.statusMessage ?? '', headers: out }));
        });
      });
      // Like fetch: a network failure is a TypeError, which the SDKs treat as a connection error.
      request.on('error', (err) => reject(err.name === 'AbortError' ? err : Object.assign(new TypeError(`fetch failed: ${err.message}`), { cause: err })));
      request.end(init.body ?? undefined);
    });
  };
