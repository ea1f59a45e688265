/**
 * A forward HTTP proxy on 127.0.0.1 that counts what passes through it: CONNECT tunnels (what
 * undici's proxy agents open, for http and https targets alike) and absolute-URI requests (a plain
 * HTTP proxy request). It forwards only to loopback addresses: a test never reaches the internet.
 */
import { createServer, request, type IncomingMessage } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';

export interface ForwardProxy {
  /** `http://127.0.0.1:<port>` (add user info yourself for a proxy with credentials). */
  url: string;
  port: number;
  /** The `host:port` of each CONNECT. */
  connects: string[];
  /** The absolute URI of each plain proxied request. */
  requests: string[];
  /** The Proxy-Authorization header of each CONNECT or request that had one. */
  authorizations: string[];
  /** CONNECTs and plain requests together. */
  count(): number;
  close(): Promise<void>;
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]', '::1']);

export async function startForwardProxy(): Promise<ForwardProxy> {
  const connects: string[] = [];
  const requests: string[] = [];
  const authorizations: string[] = [];
  const sockets = new Set<Socket>();
  const noteAuth = (req: IncomingMessage) => {
    const auth = req.headers['proxy-authorization'];
    if (auth) authorizations.push(auth);
  };

  const server = createServer((req, res) => {
    noteAuth(req);
    let target: URL;
    try {
      target = new URL(req.url ?? '');
    } catch {
      return void res.writeHead(400).end('absolute URI expected');
    }
    if (!LOOPBACK.has(target.hostname)) return void res.writeHead(403).end('loopback only');
    requests.push(target.href);
    const headers = { ...req.headers };
    delete headers['proxy-authorization'];
    delete headers['proxy-connection'];
    const upstream = request({ hostname: target.hostname, port: target.port, path: `${target.pathname}${target.search}`, method: req.method, headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });

  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });

  server.on('connect', (req: IncomingMessage, client: Socket, head: Buffer) => {
    noteAuth(req);
    const [host, port] = splitHostPort(req.url ?? '');
    if (!LOOPBACK.has(host)) return void client.end('HTTP/1.1 403 Forbidden\r\n\r\n');
    connects.push(req.url ?? '');
    const upstream = connect(Number(port), host.replace(/^\[|\]$/g, ''), () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length > 0) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    sockets.add(upstream);
    upstream.on('close', () => sockets.delete(upstream));
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    connects,
    requests,
    authorizations,
    count: () => connects.length + requests.length,
    close: () => {
      for (const s of sockets) s.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

function splitHostPort(authority: string): [string, string] {
  const i = authority.lastIndexOf(':');
  return [authority.slice(0, i), authority.slice(i + 1)];
}
