/**
 * Claude on Amazon Bedrock and on Vertex AI through createProvider and the platforms' official SDKs,
 * against fakes on 127.0.0.1 that check what the platforms check: Bedrock's SigV4 signature
 * (fake-bedrock.ts), Vertex AI's OAuth token from Google's application default credentials
 * (fake-vertex.ts). Model ids of either platform find their family's row and price.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ProviderError } from '../../src/core/errors.js';
import { ProviderLimiters } from '../../src/providers/adaptive-limit.js';
import { createProvider } from '../../src/providers/create.js';
import { missingApiKey } from '../../src/providers/model-spec.js';
import { resolvePrice } from '../../src/providers/pricing.js';
import { specCapabilities, specFamilyRow } from '../../src/providers/wires.js';
import { tempDir, removeTempDirs } from '../support/cli.js';
import { startFakeBedrock, type FakeBedrock } from '../support/fake-bedrock.js';
import { startFakeVertex } from '../support/fake-vertex.js';

const CREDS = { accessKeyId: 'AKIAIOSFODNN7EXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY' };
const MODEL = 'us.anthropic.claude-haiku-4-5-20251001-v1:0';

let fakes: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(fakes.map((f) => f.close()));
  fakes = [];
  removeTempDirs();
});

async function bedrock(script: Parameters<typeof startFakeBedrock>[0]['script']): Promise<FakeBedrock> {
  const fake = await startFakeBedrock({ credentials: CREDS, region: 'eu-west-1', script });
  fakes.push(fake);
  return fake;
}

const awsEnv = (fake: FakeBedrock, secret = CREDS.secretAccessKey) => ({
  AWS_ACCESS_KEY_ID: CREDS.accessKeyId,
  AWS_SECRET_ACCESS_KEY: secret,
  AWS_REGION: 'eu-west-1',
  ANTHROPIC_BEDROCK_BASE_URL: fake.origin,
});

describe('bedrock', () => {
  it('sends the Bedrock body to /model/{id}/invoke, SigV4-signed with the environment credentials', async () => {
    const fake = await bedrock([{ text: 'pong', usage: { input: 5, output: 1 } }]);
    const provider = createProvider(`bedrock:${MODEL}`, awsEnv(fake), { limiters: new ProviderLimiters() });

    const res = await provider.complete({ messages: [{ role: 'user', content: 'ping' }] });

    expect({ id: provider.id, text: res.text, usage: res.usage }).toMatchObject({ id: 'bedrock', text: 'pong', usage: { inputTokens: 5, outputTokens: 1 } });
    expect(fake.verified).toBe(1);
    const req = fake.requests[0]!;
    expect(decodeURIComponent(req.path)).toBe(`/model/${MODEL}/invoke`);
    expect(req.headers['authorization']).toMatch(/^AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE\/\d{8}\/eu-west-1\/bedrock\/aws4_request/);
    expect(req.headers['user-agent']).toMatch(/^AnthropicBedrock\/JS /);
    expect(req.body).not.toHaveProperty('model');
    expect(req.body.anthropic_version).toEqual(expect.any(String));
    expect(req.headers['x-api-key']).toBeUndefined();
  });

  it('a wrong secret key: the 403 of the signature check, named, and the secret nowhere in it', async () => {
    const fake = await bedrock([]);
    const wrong = 'wrongSecretKeyWrongSecretKeyWrongSecret00';
    const provider = createProvider({ provider: 'bedrock', model: MODEL, maxRetries: 0 }, awsEnv(fake, wrong), { limiters: new ProviderLimiters() });
    const err = await provider.complete({ messages: [{ role: 'user', content: 'ping' }] }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProviderError);
    expect((err as ProviderError).message).toMatch(/^permission denied by bedrock \(403\): .*The request signature we calculated does not match/);
    expect((err as ProviderError).message).not.toContain(wrong);
    expect(fake.verified).toBe(0);
  });

  it('its model ids find their family row and price under the Anthropic ids', () => {
    for (const model of [
      MODEL,
      'anthropic.claude-haiku-4-5-20251001-v1:0',
      'global.anthropic.claude-haiku-4-5',
      'arn:aws:bedrock:us-east-1:123456789012:inference-profile/eu.anthropic.claude-haiku-4-5-20251001-v1:0',
    ]) {
      expect(specFamilyRow({ provider: 'bedrock', model })?.family, model).toBe('claude-haiku-4-5');
      expect(specCapabilities({ provider: 'bedrock', model }), model).toEqual(specCapabilities({ provider: 'anthropic', model: 'claude-haiku-4-5' }));
      const price = resolvePrice(`bedrock:${model}`);
      expect({ input: price?.input, output: price?.output }, model).toEqual({ input: 1, output: 5 });
      expect(price?.source).toContain('Amazon Bedrock');
    }
  });

  it('needs no key variable: AWS_REGION defaults to us-east-1', () => {
    expect(missingApiKey({ provider: 'bedrock' }, {})).toBeUndefined();
  });
});

describe('vertex', () => {
  it('gets an OAuth token from the application default credentials and posts the Vertex body to :rawPredict', async () => {
    const fake = await startFakeVertex({ project: 'evals-project', region: 'us-east5', script: [{ text: 'pong', usage: { input: 5, output: 1 } }] });
    fakes.push(fake);
    const dir = tempDir('vertex-');
    const saved = process.env.GOOGLE_APPLICATION_CREDENTIALS;
    // google-auth-library reads its credentials from the process environment (as the Vertex SDK documents).
    process.env.GOOGLE_APPLICATION_CREDENTIALS = fake.credentialsFile(dir);
    try {
      const env = { CLOUD_ML_REGION: 'us-east5', ANTHROPIC_VERTEX_PROJECT_ID: 'evals-project', ANTHROPIC_VERTEX_BASE_URL: fake.url };
      const provider = createProvider('vertex:claude-haiku-4-5@20251001', env, { limiters: new ProviderLimiters() });
      const res = await provider.complete({ messages: [{ role: 'user', content: 'ping' }] });
      expect({ id: provider.id, text: res.text }).toEqual({ id: 'vertex', text: 'pong' });
    } finally {
      if (saved === undefined) delete process.env.GOOGLE_APPLICATION_CREDENTIALS;
      else process.env.GOOGLE_APPLICATION_CREDENTIALS = saved;
    }
    const predict = fake.requests.find((r) => r.path.includes(':rawPredict'))!;
    expect(decodeURIComponent(predict.path)).toBe('/v1/projects/evals-project/locations/us-east5/publishers/anthropic/models/claude-haiku-4-5@20251001:rawPredict');
    expect(predict.headers['authorization']).toBe(`Bearer ${fake.issued[0]}`);
    expect(predict.headers['user-agent']).toMatch(/^AnthropicVertex\/JS /);
    expect(predict.body).not.toHaveProperty('model');
  });

  it('CLOUD_ML_REGION is required before any call (the key check names it); its ids find their row and price', () => {
    expect(missingApiKey({ provider: 'vertex' }, {})).toBe('CLOUD_ML_REGION');
    expect(() => createProvider('vertex:claude-haiku-4-5@20251001', {}, { limiters: new ProviderLimiters() })).toThrow('no region for vertex: set CLOUD_ML_REGION');
    const model = 'claude-haiku-4-5@20251001';
    expect(specFamilyRow({ provider: 'vertex', model })?.family).toBe('claude-haiku-4-5');
    expect(resolvePrice(`vertex:${model}`)).toMatchObject({ input: 1, output: 5, source: expect.stringContaining('Vertex AI') });
  });
});
