/**
 * No sampling parameter ever reaches Anthropic: API version 2026-10-21 (what SDK 1.14 sends)
 * answers 400 to temperature, top_p and top_k on every model. A temperature in a model spec is
 * ignored with a warning once per spec; the fake's refusal is version-bound like the real API's.
 */
import Anthropic from '@anthropic-ai/sdk';
import { afterEach, describe, expect, it } from 'vitest';
import { ProviderLimiters } from '../../src/providers/adaptive-limit.js';
import { ignoredTemperatureWarning, warnIgnoredTemperature } from '../../src/providers/wires/anthropic/anthropic.js';
import { createProvider } from '../../src/providers/create.js';
import { startFakeAnthropic, type FakeAnthropic } from '../support/fake-anthropic.js';

let fake: FakeAnthropic | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

const body = { model: 'claude-haiku-4-5', max_tokens: 50, messages: [{ role: 'user', content: 'hi' }] };

describe('Anthropic sampling parameters', () => {
  it('the fake refuses temperature, top_p, top_k and unknown fields under 2026-10-21, as the API does; 2023-06-01 clients may still send sampling', async () => {
    fake = await startFakeAnthropic({ script: () => ({ text: 'ok' }) });
    const client = new Anthropic({ apiKey: 'test', baseURL: fake.url, maxRetries: 0 });
    // `post` sends a body the typed `messages.create` would not let us write.
    for (const [field, value] of [
      ['temperature', 1],
      ['top_p', 0.9],
      ['top_k', 5],
      ['frequency_penalty', 0],
    ] as const) {
      const err = await client.post('/v1/messages', { body: { ...body, [field]: value } }).catch((e: unknown) => e);
      expect(err, field).toMatchObject({ status: 400, error: { type: 'error', error: { type: 'invalid_request_error', message: `${field}: Extra inputs are not permitted` } } });
    }
    expect(fake.requests.every((r) => r.headers['anthropic-version'] === '2026-10-21')).toBe(true);

    const older = new Anthropic({ apiKey: 'test', baseURL: fake.url, maxRetries: 0, defaultHeaders: { 'anthropic-version': '2023-06-01' } });
    await expect(older.post('/v1/messages', { body: { ...body, temperature: 1 } })).resolves.toMatchObject({ type: 'message' });
  });

  it('a spec temperature is ignored: no sampling field in the body, and one warning per spec', async () => {
    fake = await startFakeAnthropic({ script: () => ({ text: 'ok' }) });
    const spec = { provider: 'anthropic' as const, model: 'claude-haiku-4-5', baseURL: fake.url, temperature: 0.3 };
    const provider = createProvider(spec, { ANTHROPIC_API_KEY: 'test' }, { limiters: new ProviderLimiters() });
    await provider.complete({ messages: [{ role: 'user', content: 'x' }], temperature: 0.7 });
    expect(fake.bodies[0]).not.toHaveProperty('temperature');
    expect(fake.bodies[0]).not.toHaveProperty('top_p');

    const lines: string[] = [];
    const other = { ...spec, model: 'claude-opus-4-8-sampling-test', temperature: 0 };
    for (const s of [other, other, { ...other }]) warnIgnoredTemperature(s, (l) => lines.push(l));
    expect(lines).toEqual([`agent-evals: warning: ${ignoredTemperatureWarning(other)!}\n`]);
    expect(lines[0]).toContain('anthropic:claude-opus-4-8-sampling-test: temperature 0 is ignored');
    expect(ignoredTemperatureWarning({ provider: 'anthropic', model: 'claude-opus-4-8' })).toBeUndefined();
  });
});
