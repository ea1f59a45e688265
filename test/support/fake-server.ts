/**
 * HTTP plumbing shared by the fake provider servers: a node:http server on 127.0.0.1, port 0, that
 * captures every request and answers with whatever the wire-specific layer decides, including
 * faults (slow answers, dropped sockets). Counts requests and tracks the peak number in flight.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface CapturedRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  /** Parsed JSON body (undefined if the body was not JSON). */
  body: any;
  rawBody: string;
  /** performance.now() when the body had been read: for ordering checks, never for elapsed-time bounds. */
  receivedAt: number;
  /** performance.now() when the reply was written; unset while unanswered (or if the client left first). */
  answeredAt?: number;
}

/** What the wire layer tells the plumbing to do with one request. */
export type HttpReply =
  | { status: number; headers?: Record<string, string>; body: string; delayMs?: number }
  | { drop: true; delayMs?: number }
  /** Headers of a 200, then a body that never ends (until the client goes away). */
  | { endless: true; delayMs?: number };

export type Handler = (req: CapturedRequest, index: number) => HttpReply | Promise<HttpReply>;

export interface FakeServer {
  /** http://127.0.0.1:<port> */
  origin: string;
  requests: CapturedRequest[];
  /** Requests received so far. */
  readonly count: number;
  /** Requests being answered right now, and the most there ever were at once. */
  readonly inFlight: number;
  readonly maxInFlight: number;
  close(): Promise<void>;
}

export async function startFakeServer(handle: Handler): Promise<FakeServer> {
  const requests: CapturedRequest[] = [];
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();
  let inFlight = 0;
  let maxInFlight = 0;

  const server = createServer((req, res) => {
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    let done = false;
    const finish = () => {
      if (!done) {
        done = true;
        inFlight--;
      }
    };
    res.on('close', finish);
    void readBody(req).then(async (rawBody) => {
      const captured: CapturedRequest = {
        method: req.method ?? 'GET',
        path: req.url ?? '/',
        headers: flattenHeaders(req),
        body: tryParse(rawBody),
        rawBody,
        receivedAt: performance.now(),
      };
      const index = requests.length;
      requests.push(captured);
      let reply: HttpReply;
      try {
        reply = await handle(captured, index);
      } catch (err) {
        reply = { status: 500, body: JSON.stringify({ error: { message: `fake server handler threw: ${String(err)}` } }) };
      }
      const send = () => {
        if (respond(res, reply)) captured.answeredAt = performance.now();
      };
      if (reply.delayMs && reply.delayMs > 0) {
        const t = setTimeout(() => {
          timers.delete(t);
          send();
        }, reply.delayMs);
        timers.add(t);
      } else send();
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    origin: `http://127.0.0.1:${port}`,
    requests,
    get count() {
      return requests.length;
    },
    get inFlight() {
      return inFlight;
    },
    get maxInFlight() {
      return maxInFlight;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const t of timers) clearTimeout(t);
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/** Sends the reply; false if the client had already gone (or the reply is a dropped socket). */
function respond(res: ServerResponse, reply: HttpReply): boolean {
  if (res.destroyed || res.writableEnded) return false; // the client gave up (timeout, abort)
  if ('drop' in reply) {
    res.socket?.destroy();
    return false;
  }
  if ('endless' in reply) {
    res.writeHead(200, { 'content-type': 'application/json' });
    const chunk = Buffer.alloc(64 * 1024, 'a');
    res.write('{"id": "endless", "padding": "');
    const more = () => {
      while (!res.destroyed && res.write(chunk));
    };
    res.on('drain', more);
    more();
    return true;
  }
  res.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers });
  res.end(reply.body);
  return true;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });
}

function flattenHeaders(req: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(req.headers)) {
    if (v !== undefined) out[k] = Array.isArray(v) ? v.join(', ') : v;
  }
  return out;
}

function tryParse(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return undefined;
  }
}

/**
 * Scripted replies common to both fakes. Usage is given in neutral terms and each fake maps it to
 * its wire: `input` is the whole prompt for OpenAI (prompt_tokens, `cached` a part of it) but only
 * the uncached part for Anthropic (input_tokens, with `cached` / `cacheWrite` reported beside it).
 */
export interface FakeUsage {
  input?: number;
  output?: number;
  cached?: number;
  cacheWrite?: number;
  /** Of `cacheWrite`, tokens written with the 1-hour lifetime (Anthropic's `cache_creation` split). */
  cacheWrite1h?: number;
  reasoning?: number;
}

export interface FakeToolCall {
  id?: string;
  name: string;
  args: unknown;
}

export type Scripted =
  | { text: string; usage?: FakeUsage; finishReason?: string; model?: string; delayMs?: number }
  | { toolCalls: FakeToolCall[]; text?: string; usage?: FakeUsage; model?: string; delayMs?: number }
  /** Structured output: OpenAI answers the JSON as content; Anthropic as the forced tool's input. */
  | { json: unknown; usage?: FakeUsage; model?: string; delayMs?: number }
  /** An API error in the wire's error shape; `retryAfter` in seconds (fractions allowed). */
  | { status: number; message?: string; retryAfter?: number; retryAfterMs?: number; delayMs?: number }
  | { malformed: true; delayMs?: number }
  | { drop: true; delayMs?: number }
  /** A 200 whose body streams without end. */
  | { endless: true; delayMs?: number }
  /** A slow answer: wait, then answer `then` (default: a short text reply). */
  | { delayMs: number; then?: Scripted };

export type Script = Scripted[] | ((body: any, index: number) => Scripted | undefined);

/** Takes replies from a queue and/or a function; `push` adds more while the server runs. */
export class ScriptQueue {
  readonly #queue: Scripted[];
  readonly #fn: ((body: any, index: number) => Scripted | undefined) | undefined;

  constructor(script: Script | undefined) {
    this.#queue = Array.isArray(script) ? [...script] : [];
    this.#fn = typeof script === 'function' ? script : undefined;
  }

  push(...replies: Scripted[]): void {
    this.#queue.push(...replies);
  }

  next(body: any, index: number): Scripted | undefined {
    return this.#queue.shift() ?? this.#fn?.(body, index);
  }
}

/** Unwrap `{delayMs, then}` into the reply to send and the total delay before sending it. */
export function resolveDelay(s: Scripted): { reply: Scripted; delayMs: number } {
  let delayMs = 0;
  let cur: Scripted = s;
  while (isSlow(cur)) {
    delayMs += cur.delayMs;
    cur = cur.then ?? { text: 'ok' };
  }
  return { reply: cur, delayMs: delayMs + ('delayMs' in cur && typeof cur.delayMs === 'number' ? cur.delayMs : 0) };
}

function isSlow(s: Scripted): s is { delayMs: number; then?: Scripted } {
  return Object.keys(s).every((k) => k === 'delayMs' || k === 'then');
}

export function retryHeaders(s: { retryAfter?: number; retryAfterMs?: number }): Record<string, string> {
  const h: Record<string, string> = {};
  if (s.retryAfter !== undefined) h['retry-after'] = String(s.retryAfter);
  if (s.retryAfterMs !== undefined) h['retry-after-ms'] = String(s.retryAfterMs);
  return h;
}

/** Broken JSON with the right content type: what a truncated proxy response looks like. */
export const MALFORMED_BODY = '{"id": "broken", "choices": [ {"index": 0, "message": ';

/** What both fake providers return. */
export interface FakeProvider {
  /** The SDK `baseURL` to use. */
  url: string;
  origin: string;
  /** Every request received, in order: method, path, headers, parsed body. */
  requests: CapturedRequest[];
  /** The parsed bodies only. */
  readonly bodies: any[];
  readonly count: number;
  readonly inFlight: number;
  readonly maxInFlight: number;
  /** Queue more scripted replies. */
  push(...replies: Scripted[]): void;
  close(): Promise<void>;
}

export function asFakeProvider(server: FakeServer, url: string, queue: ScriptQueue): FakeProvider {
  return {
    url,
    origin: server.origin,
    requests: server.requests,
    get bodies() {
      return server.requests.map((r) => r.body);
    },
    get count() {
      return server.count;
    },
    get inFlight() {
      return server.inFlight;
    },
    get maxInFlight() {
      return server.maxInFlight;
    },
    push: (...replies) => queue.push(...replies),
    close: () => server.close(),
  };
}
