import http from 'node:http';
import https from 'node:https';
import { Readable } from 'node:stream';
import { urlToHttpOptions } from 'node:url';
import type { FetchLike } from './fetch-like.js';
import { SCOPE_HEADER } from './rate-limit-fetch.js';
import { DEFAULT_MAX_RESPONSE_BYTES, responseTooLarge } from './body-limit.js';
import { BufferedResponse } from './buffered-response.js';
import { attemptAborted, fetchWithDeadline, type TimedFetch } from './attempt-deadline.js';

// Keep-alive pools shared by every provider: eval runs make thousands of small calls to a few hosts.
const httpAgent = new http.Agent({ keepAlive: true, maxSockets: 256 });
let secure: { https: typeof https; agent: https.Agent } | undefined;
const httpsOnce = () => {
  if (secure) return secure;
  return (secure = { https, agent: new https.Agent({ keepAlive: true, maxSockets: 256 }) });
};

/**
 * A `fetch` for the SDKs over node:http with keep-alive. Node 20's built-in fetch costs about twice
 * the CPU per call (measured in bench/), and at eval-run rates that CPU, not the network, bounds
 * the wall time. Provider calls are small JSON exchanges without streaming, so the body is read
 * whole, up to `maxBytes`: past that the request is destroyed at once and the response's body
 * fails with a ResponseTooLargeError (a body error, so the SDK reports it instead of retrying).
 * The whole body is handed over as a BufferedResponse (no web stream to read it back through).
 * Anything this does not handle (a Request object, other protocols) goes to global fetch.
 * A URL for which `streamed` says yes (a batch's result file, far bigger than one reply) gets its
 * body as a stream, uncapped here: its reader reads it line by line under its own bounds.
 * Its `timed` form runs an attempt under a time limit with one timer, no abort signal of its own.
 */
export function boundedNodeFetch(maxBytes: number = DEFAULT_MAX_RESPONSE_BYTES, streamed?: (url: URL) => boolean): TimedFetch {
  const timed = (input: Parameters<FetchLike>[0], init: RequestInit = {}, ms?: number): Promise<Response> => {
    const target = targetOf(input);
    if (!target || (init.body !== undefined && init.body !== null && typeof init.body !== 'string'))
      return ms === undefined ? globalThis.fetch(input, init) : fetchWithDeadline(globalThis.fetch, input, init, ms);
    const { url, agent } = target;
    return new Promise<Response>((resolve, reject) => {
      const timer = ms === undefined ? undefined : setTimeout(() => fail(attemptAborted(ms)), ms);
      const done = (res: Response) => {
        clearTimeout(timer);
        resolve(res);
      };
      const fail = (err: unknown) => {
        clearTimeout(timer);
        reject(err);
        request.destroy();
      };
      const request = (agent === httpAgent ? http : httpsOnce().https).request(
        { ...target.address, method: init.method ?? 'GET', headers: plainHeaders(init.headers), agent, signal: init.signal ?? undefined },
        (res) => {
          const chunks: Buffer[] = [];
          let total = 0;
          const status = res.statusCode ?? 500;
          const statusText = res.statusMessage ?? '';
          const head = () => ({ status, statusText, headers: responseHeaders(res.headers) });
          if (streamed?.(url) && status === 200) return done(new Response(Readable.toWeb(res) as ReadableStream<Uint8Array>, head()));
          res.on('data', (c: Buffer) => {
            total += c.length;
            if (total <= maxBytes) return void chunks.push(c);
            chunks.length = 0;
            res.removeAllListeners('data');
            request.destroy();
            const tooLarge = responseTooLarge(maxBytes);
            done(new Response(new ReadableStream({ start: (controller) => controller.error(tooLarge) }), head()));
          });
          res.on('error', fail);
          res.on('end', () => {
            // 204/304 may not carry a body in a Response.
            if (status === 204 || status === 304) return done(new Response(null, head()));
            // The raw header lines: a Headers is made of them only when the reply's headers are read.
            done(new BufferedResponse(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, total), { status, statusText, rawHeaders: res.rawHeaders }));
          });
        },
      );
      // Like fetch: a network failure is a TypeError, which the SDKs treat as a connection error.
      request.on('error', (err) => fail(err.name === 'AbortError' ? err : Object.assign(new TypeError(`fetch failed: ${err.message}`), { cause: err })));
      request.end(init.body ?? undefined);
    });
  };
  return Object.assign((input: Parameters<FetchLike>[0], init?: RequestInit) => timed(input, init), {
    timed: (input: Parameters<FetchLike>[0], init: RequestInit | undefined, ms: number) => timed(input, init, ms),
  });
}

interface Target {
  url: URL;
  /** What node:http takes of the URL (host, port, path, credentials), worked out once. */
  address: Pick<http.RequestOptions, 'protocol' | 'hostname' | 'port' | 'path' | 'auth'>;
  agent: http.Agent;
}

/**
 * Parsed request URLs, by their text: a run calls the same few endpoints thousands of times, so
 * each is parsed once. Bounded: past the cap the oldest entries make room.
 */
const targets = new Map<string, Target | null>();
const MAX_TARGETS = 256;

/** Where a request goes over node:http (a parsed http(s) URL and its pool); null for anything else. */
function targetOf(input: Parameters<FetchLike>[0]): Target | null {
  if (input instanceof URL) return toTarget(input);
  if (typeof input !== 'string') return null;
  let target = targets.get(input);
  if (target === undefined) {
    target = toTarget(new URL(input));
    if (targets.size >= MAX_TARGETS) targets.delete(targets.keys().next().value!);
    targets.set(input, target);
  }
  return target;
}

function toTarget(url: URL): Target | null {
  const agent = url.protocol === 'http:' ? httpAgent : url.protocol === 'https:' ? httpsOnce().agent : undefined;
  if (!agent) return null;
  const { protocol, hostname, port, path, auth } = urlToHttpOptions(url);
  return { url, address: auth === undefined ? { protocol, hostname, port, path } : { protocol, hostname, port, path, auth }, agent };
}

/** The SDKs pass a Headers: read as it is, not copied into another one first. */
function plainHeaders(init: RequestInit['headers']): Record<string, string> {
  const out: Record<string, string> = {};
  (init instanceof Headers ? init : new Headers(init)).forEach((value, key) => {
    // The request scope's header is for the rate-limited fetch in front of this one: it never leaves.
    if (key !== SCOPE_HEADER) out[key] = value;
  });
  return out;
}

/** node:http's parsed headers as a Response takes them (repeated ones, only set-cookie here, joined). */
function responseHeaders(raw: http.IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const key in raw) {
    const value = raw[key];
    if (value !== undefined) out[key] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}
