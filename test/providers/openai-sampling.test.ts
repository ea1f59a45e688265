/**
 * A temperature in an OpenAI model spec that the model does not take (a reasoning model; one that
 * takes it only at effort `none`) is left off the request and said once per spec, as Anthropic's is,
 * on Chat Completions and the Responses API alike: the request goes to the fake, and the body has none.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ProviderLimiters } from '../../src/providers/adaptive-limit.js';
import { createProvider } from '../../src/providers/create.js';
import { openAIRequestOptions, unsentTemperatureWarning, warnUnsentTemperature } from '../../src/providers/wires/openai/openai-wire.js';
import type { ModelSpec } from '../../src/providers/model-spec.js';
import { startFakeOpenAI, type FakeOpenAI } from '../support/fake-openai.js';

let fake: FakeOpenAI | undefined;
afterEach(async () => {
  vi.restoreAllMocks();
  await fake?.close();
  fake = undefined;
});

const warning = (spec: ModelSpec) => unsentTemperatureWarning(spec, openAIRequestOptions(spec));

describe('an OpenAI temperature the model does not take', () => {
  it('is named, with why, for a model that takes it only at effort none; not at none, nor for a model that takes it', () => {
    expect(warning({ provider: 'openai', model: 'gpt-5.4', temperature: 0 })).toBe(
      "openai:gpt-5.4: temperature 0 is not sent: the model takes it only at reasoningEffort 'none'; remove it from the model spec",
    );
    expect(warning({ provider: 'openai', model: 'gpt-5.4', temperature: 0, reasoningEffort: 'none' })).toBeUndefined();
    expect(warning({ provider: 'openai', model: 'gpt-4.1-mini', temperature: 0 })).toBeUndefined();
    expect(warning({ provider: 'openai', model: 'gpt-5.4' })).toBeUndefined();
  });

  it('once per spec', () => {
    const lines: string[] = [];
    const spec: ModelSpec = { provider: 'openai', model: 'gpt-5.4-nano', temperature: 0.3 };
    for (const s of [spec, spec, { ...spec }]) warnUnsentTemperature(s, openAIRequestOptions(s), (l) => lines.push(l));
    expect(lines).toEqual([`agent-evals: warning: ${warning(spec)!}\n`]);
  });

  for (const [api, temperature] of [
    ['chat', 0.7],
    ['responses', 0.6],
  ] as const) {
    it(`a provider built for such a spec says so, and its request carries no temperature (${api})`, async () => {
      fake = await startFakeOpenAI({ script: () => ({ text: 'ok' }) });
      const written: string[] = [];
      vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => (written.push(String(chunk)), true));
      const spec: ModelSpec = { provider: 'openai', model: 'gpt-5.4-mini', baseURL: fake.url, temperature, api };
      const provider = createProvider(spec, { OPENAI_API_KEY: 'test' }, { limiters: new ProviderLimiters() });
      await provider.complete({ messages: [{ role: 'user', content: 'x' }] });
      expect(written.join('')).toContain(`agent-evals: warning: openai:gpt-5.4-mini: temperature ${temperature} is not sent`);
      expect(fake.count).toBe(1);
      expect(fake.bodies[0]).not.toHaveProperty('temperature');
    });
  }
});
