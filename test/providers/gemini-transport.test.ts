/**
 * The google provider's HTTP goes through the project's transport, handed to `@google/genai` as
 * `httpOptions.fetch`: the proxy route, the endpoint's limiter (a 429 retried there, after its
 * retry-after), each attempt's own time limit; the SDK's own retries take 5xx. Errors come back as
 * ProviderErrors with the API's message and no key in it. Real SDK, fake Gemini API on 127.0.0.1.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ProviderError } from '../../src/core/errors.js';
import { ProviderLimiters } from '../../src/providers/adaptive-limit.js';
import { createProvider } from '../../src/providers/create.js';
import type { ModelSpecInput } from '../../src/providers/model-spec.js';
import { startFakeGemini, type FakeGemini } from '../support/fake-gemini.js';
import type { Script } from '../support/fake-server.js';
import { startForwardProxy } from '../support/forward-proxy.js';

const KEY = 'gemini-transport-key-0123456789';
const closers: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

async function setup(script: Script, spec: Partial<Extract<ModelSpecInput, object>> = {}, env: NodeJS.ProcessEnv = {}): Promise<{ fake: FakeGemini; call: () => Promise<unknown> }> {
  const fake = await startFakeGemini({ apiKey: KEY, script });
  closers.push(() => fake.close());
  const provider = createProvider({ provider: 'google', model: 'gemini-2.5-flash', baseURL: fake.url, ...spec }, { GEMINI_API_KEY: KEY, ...env }, { limiters: new ProviderLimiters() });
  return { fake, call: () => provider.complete({ messages: [{ role: 'user', content: 'hi' }] }) };
}

describe('google provider transport', () => {
  it('HTTP_PROXY: the call reaches the fake through the proxy', async () => {
    const p = await startForwardProxy();
    closers.push(() => p.close());
    const { fake, call } = await setup([{ text: 'through' }], { maxRetries: 0 }, { HTTP_PROXY: p.url });
    await expect(call()).resolves.toMatchObject({ text: 'through' });
    expect(fake.count).toBe(1);
    expect(p.count()).toBeGreaterThan(0);
  });

  it('a 429 is retried through the limiter after its retry-after; the SDK does not retry it again', async () => {
    const { fake, call } = await setup([{ status: 429, retryAfterMs: 10 }, { text: 'after the wait' }], { maxRetries: 0 });
    await expect(call()).resolves.toMatchObject({ text: 'after the wait' });
    expect(fake.count).toBe(2);
  });

  it('a 503 is retried by the SDK (maxRetries), then answered', async () => {
    const { fake, call } = await setup([{ status: 503 }, { text: 'recovered' }], { maxRetries: 1 });
    await expect(call()).resolves.toMatchObject({ text: 'recovered' });
    expect(fake.count).toBe(2);
  });

  it("a 400 is a bad_request ProviderError carrying the API's message, not retried, the key nowhere in it", async () => {
    const { fake, call } = await setup([{ status: 400, message: `Invalid value at 'contents' (key ${KEY})` }]);
    const err = await call().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProviderError);
    expect(err).toMatchObject({ kind: 'bad_request', status: 400, message: expect.stringContaining("INVALID_ARGUMENT: Invalid value at 'contents'") });
    expect((err as Error).message).not.toContain(KEY);
    expect(fake.count).toBe(1);
  });

  it('an attempt past timeoutMs fails as a timeout', async () => {
    const { call } = await setup([{ delayMs: 30_000, then: { text: 'too late' } }], { timeoutMs: 200, maxRetries: 0 });
    await expect(call()).rejects.toMatchObject({ kind: 'timeout', message: 'google request timed out after 200 ms (1 attempts)' });
  });
});
