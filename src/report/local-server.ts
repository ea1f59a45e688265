import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** The only interface the local servers (`review`, `view`) listen on: what they serve never leaves the machine. */
export const LOCAL_HOST = '127.0.0.1';

/** Headers of every answer: never cached, never sniffed, no referrer sent on. */
export const COMMON_HEADERS = { 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff', 'Referrer-Policy': 'no-referrer' };

/** An answer other than 200: its status and a one-line plain-text body. */
export class Refusal extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** Answers one authorised request; `path` is the part after `/<token>` (`/`, `/label`, …). A throw is its answer (a Refusal's status, else 500 with `failure`). */
export type LocalHandler = (path: string, req: IncomingMessage, res: ServerResponse) => Promise<void>;

export interface LocalServer {
  /** The root address, token included: whoever has it can use the server. */
  url: string;
  /** The port it listens on. */
  port: number;
  /** Stops listening and drops open connections. */
  close(): Promise<void>;
}

/**
 * A server on 127.0.0.1 (`port` 0: any free port) under a random token (`/<token>/…`): a request
 * without it, or for another host (a DNS-rebound name), gets 403 and nothing else. `failure` words
 * an unexpected error's 500 answer.
 */
export async function startLocalServer(port: number, handle: LocalHandler, failure: (err: Error) => string): Promise<LocalServer> {
  const token = randomBytes(24).toString('base64url');
  let bound = port;

  const authorised = (req: IncomingMessage): string | undefined => {
    if (req.headers.host !== `${LOCAL_HOST}:${bound}`) return undefined;
    const url = req.url ?? '';
    const given = Buffer.from(url.slice(1, 1 + token.length));
    const wanted = Buffer.from(token);
    if (given.length !== wanted.length || !timingSafeEqual(given, wanted) || url[1 + token.length] !== '/') return undefined;
    return url.slice(1 + token.length);
  };

  const server = createServer((req, res) => {
    const path = authorised(req);
    const answer = path === undefined ? Promise.reject(new Refusal(403, 'forbidden')) : handle(path, req, res);
    answer.catch((err: unknown) => {
      const refusal = err instanceof Refusal ? err : new Refusal(500, failure(err as Error));
      if (res.headersSent) return void res.destroy();
      // A refused body is not read on: the connection closes once the answer is out.
      res.writeHead(refusal.status, { ...COMMON_HEADERS, 'Content-Type': 'text/plain; charset=utf-8', Connection: 'close' });
      res.end(`${refusal.message}\n`);
    });
  });
  server.requestTimeout = 30_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, LOCAL_HOST, () => {
      server.off('error', reject);
      resolve();
    });
  });
  bound = (server.address() as AddressInfo).port;
  return {
    url: `http://${LOCAL_HOST}:${bound}/${token}/`,
    port: bound,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** Sends a page (HEAD: its headers only) with the given Content-Security-Policy; no page may frame it. */
export function sendHtml(req: IncomingMessage, res: ServerResponse, body: string, csp: string): void {
  res.writeHead(200, {
    ...COMMON_HEADERS,
    'Content-Type': 'text/html; charset=utf-8',
    'Content-Security-Policy': `${csp}; frame-ancestors 'none'`,
    'Content-Length': Buffer.byteLength(body),
  });
  res.end(req.method === 'HEAD' ? undefined : body);
}
