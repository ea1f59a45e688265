/**
 * The node:http fetch's buffered replies behave as a standard Response would: read once, cloned,
 * streamed on request; and an attempt past its time limit fails as an aborted request whose cause
 * is a TimeoutError (what the SDKs read as a timed-out connection), with no abort signal of its own.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { BufferedResponse } from '../../src/providers/buffered-response.js';
import { boundedNodeFetch } from '../../src/providers/node-fetch.js';
import { isTimedFetch } from '../../src/providers/attempt-deadline.js';
import { rateLimitedFetch, requestScope } from '../../src/providers/rate-limit-fetch.js';
import { AdaptiveLimiter } from '../../src/providers/adaptive-limit.js';
import { bindDeadline } from '../../src/core/deadline-pause.js';

const servers: Server[] = [];
afterAll(async () => {
  for (const s of servers) s.closeAllConnections();
  await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
});

/** A server answering `/json` and `/headers` (the request's, as JSON) at once, and holding `/hang` until the test ends. */
async function server(): Promise<string> {
  const s = createServer((req, res) => {
    if (req.url === '/json') return void res.writeHead(200, { 'content-type': 'application/json', 'x-request-id': 'req_1' }).end('\ufeff{"a":[1,2]}');
    if (req.url === '/headers') return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(req.headers));
  });
  servers.push(s);
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(s.address() as AddressInfo).port}`;
}

describe('BufferedResponse', () => {
  const make = () => new BufferedResponse(Buffer.from('{"ok":true}'), { status: 201, statusText: 'Created', headers: { 'content-type': 'application/json' } });

  it('answers as a Response does: status, headers (a standard Headers), a body read once', async () => {
    const res = make();
    expect(res.headers).toBeInstanceOf(Headers);
    expect([res.ok, res.status, res.statusText, res.headers.get('content-type')]).toEqual([true, 201, 'Created', 'application/json']);
    expect(new BufferedResponse(Buffer.from(''), { status: 429 }).ok).toBe(false);
    expect(res.bodyUsed).toBe(false);
    expect(await res.json()).toEqual({ ok: true });
    expect(res.bodyUsed).toBe(true);
    await expect(res.text()).rejects.toThrow(TypeError);
  });

  it('clones before a read, and hands out its body as a stream, text and bytes', async () => {
    const res = make();
    const copy = res.clone();
    expect(await res.text()).toBe('{"ok":true}');
    expect(new TextDecoder().decode(await copy.arrayBuffer())).toBe('{"ok":true}');
    const streamed = make();
    expect(streamed.body).toBeInstanceOf(ReadableStream);
    // Once the stream was handed out, reads go through it (a clone taken now still has the bytes).
    const after = streamed.clone();
    expect(await new Response(streamed.body).text()).toBe('{"ok":true}');
    expect(await after.text()).toBe('{"ok":true}');
    expect(
      await make()
        .blob()
        .then((b) => b.text()),
    ).toBe('{"ok":true}');
  });
});

describe('boundedNodeFetch', () => {
  it('answers with a buffered Response (byte-order mark dropped, headers kept)', async () => {
    const url = await server();
    const res = await boundedNodeFetch()(`${url}/json`);
    expect(res).toBeInstanceOf(BufferedResponse);
    expect(res.headers.get('x-request-id')).toBe('req_1');
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(await res.json()).toEqual({ a: [1, 2] });
  });

  it('fails an attempt past its time limit as an aborted request caused by a TimeoutError', async () => {
    const url = await server();
    const fetch = boundedNodeFetch();
    expect(isTimedFetch(fetch)).toBe(true);
    const err = await fetch.timed(`${url}/hang`, undefined, 20).catch((e: unknown) => e);
    expect(err).toMatchObject({ name: 'AbortError', cause: { name: 'TimeoutError', message: 'attempt timed out after 20 ms' } });
    // A quick answer under a limit is not cut.
    expect(await (await fetch.timed(`${url}/json`, undefined, 60_000)).json()).toEqual({ a: [1, 2] });
  });

  it("sends a request scope's header nowhere: the rate-limited fetch reads it, the node:http fetch leaves it out", async () => {
    const url = await server();
    const fetch = rateLimitedFetch(new AdaptiveLimiter({ max: 1 }), boundedNodeFetch(), { attemptTimeoutMs: 60_000 });
    const signal = new AbortController().signal;
    bindDeadline(signal, new AbortController().signal, { pause() {}, resume() {} });
    const scope = requestScope(signal);
    expect(Object.keys(scope.options!.headers!)).toEqual(['x-agent-evals-scope']);
    const sent = (await (await fetch(`${url}/headers`, { headers: new Headers({ ...scope.options!.headers, 'x-kept': '1' }), signal: scope.options!.signal })).json()) as Record<string, string>;
    scope.done();
    expect(sent['x-kept']).toBe('1');
    expect(Object.keys(sent).filter((k) => k.startsWith('x-agent-evals'))).toEqual([]);
  });
});
