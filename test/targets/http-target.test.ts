/** The HTTP target against a tiny agent service on loopback: health, sessions, turns, errors. */
import { afterEach, describe, expect, it } from 'vitest';
import { httpTarget } from '../../src/targets/http-target.js';
import { startFakeServer, type FakeServer, type Handler } from '../support/fake-server.js';
import { never, trialInput } from './helpers.js';

let server: FakeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const SECRET = 'Bearer svc-token-7f3a9c';

async function service(handle: Handler) {
  server = await startFakeServer(handle);
  return { server, target: httpTarget('svc', { url: `${server.origin}/`, headers: { authorization: SECRET } }) };
}

const ok = (body: unknown) => ({ status: 200, body: JSON.stringify(body) });

describe('HTTP target', () => {
  it('checks /health once, opens a session per trial and posts each turn', async () => {
    let sessions = 0;
    const { server, target } = await service((req) => {
      if (req.path === '/health') return ok({ ok: true });
      if (req.path === '/sessions') return ok({ sessionId: `s${++sessions}` });
      const turn = /^\/sessions\/(\w+)\/turns$/.exec(req.path);
      if (turn) return ok({ reply: `${turn[1]}: ${req.body.message}`, steps: [{ toolCalls: [{ name: 'lookup', args: { q: req.body.message } }] }] });
      return { status: 404, body: 'no' };
    });

    const run = await target.run(trialInput('hello'), never);
    const session = await target.openSession!(trialInput('first', { trial: 1 }), never);
    const a = await session.send('first', never);
    const b = await session.send('second', never);
    await session.close();

    expect(run.reply).toBe('s1: hello');
    expect([a.reply, b.reply]).toEqual(['s2: first', 's2: second']);
    expect(b.steps![0]!.toolCalls![0]).toEqual({ name: 'lookup', args: { q: 'second' } });
    expect(server.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      'GET /health',
      'POST /sessions',
      'POST /sessions/s1/turns',
      'POST /sessions',
      'POST /sessions/s2/turns',
      'POST /sessions/s2/turns',
    ]);
    // The session is created with the trial JSON (what a command target reads on stdin).
    expect(server.requests[1]!.body).toEqual({ suite: 'store', id: 'case', trial: 0, input: 'hello', messages: [{ role: 'user', content: 'hello' }] });
    expect(server.requests.every((r) => r.headers['authorization'] === SECRET)).toBe(true);
  });

  it('posts a turn given as content parts with its parts beside the message; a text turn without', async () => {
    const { server, target } = await service((req) => (req.path === '/health' ? ok({}) : req.path === '/sessions' ? ok({ sessionId: 's' }) : ok({ reply: 'seen' })));
    const image = { type: 'image' as const, mediaType: 'image/png' as const, name: 'r.png', data: 'iVBORw0KGgo=', bytes: 8, sha256: '0'.repeat(64) };
    const session = await target.openSession!(trialInput('hi'), never);
    await session.send('hi', never);
    await session.send('This one.', never, [{ type: 'text', text: 'This one.' }, image]);
    await session.close();
    const turns = server.requests.filter((r) => r.path === '/sessions/s/turns').map((r) => r.body);
    expect(turns).toEqual([{ message: 'hi' }, { message: 'This one.', parts: [{ type: 'text', text: 'This one.' }, image] }]);
  });

  it('fails every trial clearly when the service is unhealthy, checking only once', async () => {
    const { server, target } = await service(() => ({ status: 503, body: 'warming up' }));
    await expect(target.run(trialInput('x'), never)).rejects.toThrow(/^HTTP target "svc": GET \/health answered 503: warming up \(health check of http:\/\/127\.0\.0\.1:\d+\)$/);
    await expect(target.run(trialInput('y'), never)).rejects.toThrow(/GET \/health answered 503/);
    expect(server.count).toBe(1);
  });

  it('takes any 2xx /health as healthy, whatever its body (a plain-text ok, an HTML page)', async () => {
    const { target } = await service((req) => (req.path === '/health' ? { status: 200, body: 'ok' } : req.path === '/sessions' ? ok({ sessionId: 's' }) : ok({ reply: 'fine' })));
    await expect(target.run(trialInput('x'), never)).resolves.toMatchObject({ reply: 'fine' });
  });

  it('reports a non-2xx turn with its status and the first 512 bytes, never a header value', async () => {
    const huge = `echo ${SECRET} ` + 'x'.repeat(2_000);
    const { target } = await service((req) => (req.path === '/health' ? ok({}) : req.path === '/sessions' ? ok({ sessionId: 'a b' }) : { status: 500, body: huge }));
    const err = (await target.run(trialInput('x'), never).catch((e: unknown) => e)) as Error;
    expect(err.message).toMatch(/^HTTP target "svc": POST \/sessions\/a%20b\/turns answered 500: echo \[redacted\] x+…$/);
    expect(err.message).not.toContain('svc-token-7f3a9c');
    expect(Buffer.byteLength(err.message.split('answered 500: ')[1]!)).toBeLessThanOrEqual(512 + 3);
  });

  it('rejects a turn that is not an AgentRun, and a session without an id', async () => {
    const { target } = await service((req) => (req.path === '/health' ? ok({}) : req.path === '/sessions' ? ok({ sessionId: 's' }) : ok({ answer: 'hi' })));
    await expect(target.run(trialInput('x'), never)).rejects.toThrow('HTTP target "svc": POST /sessions/s/turns answered no valid AgentRun: reply: Invalid input: expected string, received undefined');

    const { target: noId } = await service((req) => (req.path === '/health' ? ok({}) : ok({ id: 1 })));
    await expect(noId.run(trialInput('x'), never)).rejects.toThrow('POST /sessions answered without a sessionId');
  });

  it('names the target when the service cannot be reached, without the header values', async () => {
    const closed = await startFakeServer(() => ok({}));
    await closed.close(); // a port nothing listens on any more
    const target = httpTarget('down', { url: closed.origin, headers: { 'x-api-key': 'very-secret-value' } });
    const err = (await target.run(trialInput('x'), never).catch((e: unknown) => e)) as Error;
    expect(err.message).toMatch(/^HTTP target "down": GET \/health failed: fetch failed \(ECONNREFUSED\)/);
    expect(err.message).not.toContain('very-secret-value');
  });

  it('stops a request when the trial is aborted', async () => {
    const { target } = await service((req) => (req.path === '/health' ? ok({}) : { status: 200, body: '{}', delayMs: 5_000 }));
    const ac = new AbortController();
    setTimeout(() => ac.abort(new Error('timed out after 50 ms')), 50);
    await expect(target.run(trialInput('x'), ac.signal)).rejects.toThrow('timed out after 50 ms');
  });

  it('follows a redirect within its origin, and refuses one to another origin without sending it the headers', async () => {
    const elsewhere = await startFakeServer(() => ok({ sessionId: 'stolen' }));
    try {
      let redirectAway = false;
      const { server, target } = await service((req) => {
        if (req.path === '/health') return { status: 302, headers: { location: '/healthz' }, body: '' };
        if (req.path === '/healthz') return ok({});
        if (req.path === '/sessions')
          return redirectAway ? { status: 307, headers: { location: `${elsewhere.origin}/sessions` }, body: '' } : { status: 307, headers: { location: '/v2/sessions' }, body: '' };
        if (req.path === '/v2/sessions') return ok({ sessionId: 's' });
        return ok({ reply: 'fine' });
      });
      expect((await target.run(trialInput('x'), never)).reply).toBe('fine');
      expect(server.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /health', 'GET /healthz', 'POST /sessions', 'POST /v2/sessions', 'POST /sessions/s/turns']);
      // A 307 repeats the request: the trial JSON reaches the new path, with the headers.
      expect(server.requests[3]!.body.input).toBe('x');
      expect(server.requests[3]!.headers.authorization).toBe(SECRET);

      redirectAway = true;
      await expect(target.run(trialInput('y'), never)).rejects.toThrow(/^HTTP target "svc": POST \/sessions was redirected \(307\) to another origin \(http:\/\/127\.0\.0\.1:\d+\); not followed/);
      expect(elsewhere.count).toBe(0);
    } finally {
      await elsewhere.close();
    }
  });
});
