/**
 * Provider calls and HTTP targets go through a forward proxy when the environment or the config
 * says so: the real OpenAI and Anthropic SDK clients against fake servers on 127.0.0.1, and a
 * counting proxy on 127.0.0.1 between them (test/support/forward-proxy.ts).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ProviderLimiters } from '../../src/providers/adaptive-limit.js';
import { createProvider } from '../../src/providers/create.js';
import type { ModelSpecInput } from '../../src/providers/model-spec.js';
import { httpTarget } from '../../src/targets/http-target.js';
import { startFakeOpenAI } from '../support/fake-openai.js';
import { startFakeAnthropic } from '../support/fake-anthropic.js';
import { startForwardProxy, type ForwardProxy } from '../support/forward-proxy.js';

const closers: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

async function proxy(): Promise<ForwardProxy> {
  const p = await startForwardProxy();
  closers.push(() => p.close());
  return p;
}

/** A port nothing listens on: a request sent to it as a proxy fails. */
async function deadPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  await new Promise((r) => server.close(r));
  return port;
}

/** One chat call through the real OpenAI SDK client at a fake server; the fake's request count after it. */
async function openAICall(env: NodeJS.ProcessEnv, spec: Partial<Extract<ModelSpecInput, object>> = {}, limiters = new ProviderLimiters()) {
  const fake = await startFakeOpenAI({ script: () => ({ text: 'through' }) });
  closers.push(() => fake.close());
  const provider = createProvider({ provider: 'openai', model: 'gpt-4.1-mini', baseURL: fake.url, maxRetries: 0, ...spec }, { OPENAI_API_KEY: 'sk-test-proxy-0000', ...env }, { limiters });
  const res = await provider.complete({ messages: [{ role: 'user', content: 'hi' }] });
  return { text: res.text, served: fake.count };
}

describe('provider calls behind a proxy', () => {
  it('HTTP_PROXY: the OpenAI SDK call reaches the fake model server through the proxy', async () => {
    const p = await proxy();
    const { text, served } = await openAICall({ HTTP_PROXY: p.url });
    expect(text).toBe('through');
    expect(served).toBe(1);
    expect(p.count()).toBeGreaterThan(0);
    expect(p.connects.every((c) => c.startsWith('127.0.0.1:'))).toBe(true);
  });

  it('lower-case http_proxy is honoured too, and an Anthropic call goes the same way', async () => {
    const p = await proxy();
    const fake = await startFakeAnthropic({ script: () => ({ text: 'via proxy' }) });
    closers.push(() => fake.close());
    const provider = createProvider(
      { provider: 'anthropic', model: 'claude-haiku-4-5', baseURL: fake.url, maxRetries: 0 },
      { ANTHROPIC_API_KEY: 'sk-ant-test-0000', http_proxy: p.url },
      { limiters: new ProviderLimiters() },
    );
    expect((await provider.complete({ messages: [{ role: 'user', content: 'hi' }] })).text).toBe('via proxy');
    expect(p.count()).toBeGreaterThan(0);
  });

  it('NO_PROXY covering the host: the call goes directly, the proxy sees nothing (covering another port: through it)', async () => {
    const p = await proxy();
    await openAICall({ HTTP_PROXY: p.url, NO_PROXY: 'localhost,127.0.0.1:1' });
    const through = p.count();
    expect(through).toBeGreaterThan(0);
    const { served } = await openAICall({ HTTP_PROXY: p.url, HTTPS_PROXY: p.url, NO_PROXY: 'localhost,127.0.0.1' });
    expect(served).toBe(1);
    expect(p.count()).toBe(through);
  });

  it("the config's proxy (the run's limiters carry it) wins over the environment's", async () => {
    const p = await proxy();
    const dead = `http://127.0.0.1:${await deadPort()}`;
    const { served } = await openAICall({ HTTP_PROXY: dead, NO_PROXY: '127.0.0.1' }, {}, new ProviderLimiters(Infinity, { proxy: p.url }));
    expect(served).toBe(1);
    expect(p.count()).toBeGreaterThan(0);
  });

  it("a model spec's proxy: false goes directly, over the config's and the environment's", async () => {
    const p = await proxy();
    const { served } = await openAICall({ HTTP_PROXY: p.url }, { proxy: false }, new ProviderLimiters(Infinity, { proxy: p.url }));
    expect(served).toBe(1);
    expect(p.count()).toBe(0);
  });

  it('a proxy URL with credentials sends them to the proxy as Proxy-Authorization', async () => {
    const p = await proxy();
    const { served } = await openAICall({}, { proxy: `http://evals:pr0xy-pass@127.0.0.1:${p.port}` });
    expect(served).toBe(1);
    expect(p.authorizations).toContain(`Basic ${Buffer.from('evals:pr0xy-pass').toString('base64')}`);
  });
});

describe('HTTP targets behind a proxy', () => {
  async function sessionsService(): Promise<string> {
    const server: Server = createServer((req, res) => {
      res.setHeader('content-type', 'application/json');
      if (req.url === '/health') return void res.end('{}');
      if (req.url === '/sessions') return void res.end('{"sessionId":"s1"}');
      res.end(JSON.stringify({ reply: 'served', steps: [] }));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    closers.push(() => new Promise((r) => server.close(r)));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  it('HTTP_PROXY from its environment: every request of the protocol passes the proxy; its own proxy: false goes directly', async () => {
    const p = await proxy();
    const url = await sessionsService();
    const viaProxy = httpTarget('svc', { url, env: { HTTP_PROXY: p.url } });
    expect((await viaProxy.run({ input: 'hi' } as never, new AbortController().signal)).reply).toBe('served');
    expect(p.count()).toBeGreaterThan(0);

    const before = p.count();
    const direct = httpTarget('svc', { url, env: { HTTP_PROXY: p.url }, proxy: false });
    expect((await direct.run({ input: 'hi' } as never, new AbortController().signal)).reply).toBe('served');
    expect(p.count()).toBe(before);
  });
});
