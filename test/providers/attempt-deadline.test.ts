/**
 * An attempt's deadline (`timeoutMs`) lasts until the reply's body has been read: a server that sends
 * its headers in time and then stalls the body fails the call as a timeout instead of holding it
 * until the SDK's backstop. The real OpenAI SDK client against a stalling server on 127.0.0.1; the
 * clock is faked and moves only once the server has sent the headers and the start of the body.
 */
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, expect, it, vi } from 'vitest';
import { ProviderLimiters } from '../../src/providers/adaptive-limit.js';
import { createProvider } from '../../src/providers/create.js';

const open: ServerResponse[] = [];
let close: (() => Promise<unknown>) | undefined;
afterEach(async () => {
  vi.useRealTimers();
  for (const res of open.splice(0)) res.destroy();
  await close?.();
});

it('a body that stalls after its headers fails the call as a timed-out attempt', async () => {
  let stalled = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"id":"chatcmpl-1","object":"chat.completion",');
      open.push(res);
      stalled++;
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  close = () => new Promise((r) => server.close(r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  const provider = createProvider(
    { provider: 'openai', model: 'gpt-4.1-mini', baseURL: url, timeoutMs: 1_000, maxRetries: 0 },
    { OPENAI_API_KEY: 'sk-test-0000' },
    { limiters: new ProviderLimiters() },
  );

  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
  let done = false;
  const call = provider.complete({ messages: [{ role: 'user', content: 'x' }] }).finally(() => (done = true));
  call.catch(() => {});
  while (!done) {
    // The clock moves only while the server holds the stalled body.
    if (stalled > 0) await vi.advanceTimersToNextTimerAsync();
    await new Promise((resolve) => setImmediate(resolve));
  }
  await expect(call).rejects.toMatchObject({ message: expect.stringMatching(/timed out/) });
  expect(stalled).toBe(1);
});
