/**
 * Every registry entry, called through createProvider with nothing but its own environment
 * variables, reaches the fake of its wire through that wire's real SDK: a preset speaks to the fake
 * OpenAI server through the OpenAI SDK (never the Anthropic one), with its key variable, or none for
 * a local server. A run with a preset judge under --judge-batch judges it live and says so once; the
 * key check before a run knows which presets need no key.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ProviderConfigError, ProviderError } from '../../src/core/errors.js';
import { ProviderLimiters } from '../../src/providers/adaptive-limit.js';
import { createProvider } from '../../src/providers/create.js';
import { PROVIDERS, type ProviderDescriptor } from '../../src/providers/registry.js';
import { createJudgeService } from '../../src/judges/create-judge-service.js';
import { checkApiKeys } from '../../src/runner/api-keys.js';
import { dryRunFetch } from '../../src/targets/dry-run-fetch.js';
import { removeTempDirs } from '../support/cli.js';
import { startFakeAnthropic } from '../support/fake-anthropic.js';
import { startFakeGemini } from '../support/fake-gemini.js';
import { startFakeOpenAI } from '../support/fake-openai.js';
import type { FakeProvider } from '../support/fake-server.js';
import { runInProcess } from '../support/run-in-process.js';

const fakes: FakeProvider[] = [];
afterEach(async () => {
  await Promise.all(fakes.splice(0).map((f) => f.close()));
  removeTempDirs();
});

async function fakeFor(d: ProviderDescriptor, apiKey?: string): Promise<FakeProvider> {
  const options = { script: [{ text: 'pong', usage: { input: 5, output: 1 } }], ...(apiKey ? { apiKey } : {}) };
  const fake = d.wire === 'anthropic' ? await startFakeAnthropic(options) : d.wire === 'google' ? await startFakeGemini(options) : await startFakeOpenAI(options);
  fakes.push(fake);
  return fake;
}

const SDK_AGENT: Record<string, RegExp> = { openai: /^OpenAI\/JS /, anthropic: /^Anthropic\/JS /, google: /^google-genai-sdk\// };
/** Where each wire's call goes: the Gemini API names the model in the path, not the body. */
const CALL_PATH: Record<string, string> = { openai: '/v1/chat/completions', anthropic: '/v1/messages', google: '/v1beta/models/some-model:generateContent' };

// Claude on Bedrock and Vertex AI speak their platforms' own paths and auth: bedrock-vertex.test.ts.
describe.each(PROVIDERS.filter((d) => d.wire === 'openai' || d.wire === 'anthropic').map((d) => [d.id, d] as const))('createProvider on %s', (id, d) => {
  it(`reaches the ${d.wire} fake through the ${d.wire} SDK, from its own variables only`, async () => {
    const key = `key-for-${id}-0123456789`;
    const fake = await fakeFor(d, key);
    const env = { [d.keyEnv]: key, [d.baseURLEnv]: fake.url };
    const provider = createProvider(`${id}:some-model`, env, { limiters: new ProviderLimiters() });

    const res = await provider.complete({ messages: [{ role: 'user', content: 'ping' }] });

    expect({ id: provider.id, spec: provider.spec, text: res.text }).toEqual({ id, spec: `${id}:some-model`, text: 'pong' });
    const req = fake.requests[0]!;
    expect(req.path).toBe(CALL_PATH[d.wire]);
    expect(req.headers['user-agent']).toMatch(SDK_AGENT[d.wire]!);
    expect(req.headers['anthropic-version'] === undefined).toBe(d.wire !== 'anthropic');
    if (d.wire !== 'google') expect(req.body.model).toBe('some-model');
    else expect(req.headers['x-goog-api-key']).toBe(key);
  });
});

describe('presets: keys and endpoints', () => {
  it('a local server (ollama) needs no key: a placeholder goes as the bearer token, its variable when set', async () => {
    const fake = await fakeFor(PROVIDERS.find((p) => p.id === 'ollama')!);
    fake.push({ text: 'again' });
    const limiters = new ProviderLimiters();
    await createProvider('ollama:llama3.2:8b', { OLLAMA_BASE_URL: fake.url }, { limiters }).complete({ messages: [{ role: 'user', content: 'hi' }] });
    await createProvider('ollama:llama3.2:8b', { OLLAMA_BASE_URL: fake.url, OLLAMA_API_KEY: 'cloud-key-123' }, { limiters }).complete({ messages: [{ role: 'user', content: 'hi' }] });
    expect(fake.requests.map((r) => r.headers['authorization'])).toEqual(['Bearer no-key', 'Bearer cloud-key-123']);
    expect(fake.bodies.map((b) => b.model)).toEqual(['llama3.2:8b', 'llama3.2:8b']);
  });

  it('groq: GROQ_API_KEY is required before any call, and a rejected key is blamed on it', async () => {
    expect(() => createProvider('groq:some-model', {}, { limiters: new ProviderLimiters() })).toThrow(new ProviderConfigError('missing API key for groq: set GROQ_API_KEY'));
    const fake = await fakeFor(
      PROVIDERS.find((p) => p.id === 'groq')!,
      'the-right-key-000',
    );
    const provider = createProvider({ provider: 'groq', model: 'some-model', maxRetries: 0 }, { GROQ_API_KEY: 'a-wrong-key-000', GROQ_BASE_URL: fake.url }, { limiters: new ProviderLimiters() });
    const err = await provider.complete({ messages: [{ role: 'user', content: 'hi' }] }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProviderError);
    expect((err as ProviderError).message).toBe('authentication failed for groq: check GROQ_API_KEY');
  });

  it('azure: without AZURE_OPENAI_BASE_URL (or baseURL) the spec is a configuration error, before any call', async () => {
    expect(() => createProvider('azure:my-deployment', { AZURE_OPENAI_API_KEY: 'k-123456' }, { limiters: new ProviderLimiters() })).toThrow(ProviderConfigError);
    const fake = await fakeFor(PROVIDERS.find((p) => p.id === 'azure')!);
    const res = await createProvider({ provider: 'azure', model: 'my-deployment', baseURL: fake.url }, { AZURE_OPENAI_API_KEY: 'k-123456' }, { limiters: new ProviderLimiters() }).complete({
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(res.text).toBe('pong');
    expect(fake.requests[0]!.headers['authorization']).toBe('Bearer k-123456');
  });

  it("--dry-run's fetch answers a preset in its wire's format (ctx.fetch('groq') under --dry-run)", async () => {
    const res = await dryRunFetch('groq')('http://127.0.0.1:9/openai/v1/chat/completions', { method: 'POST', body: JSON.stringify({ model: 'some-model', messages: [] }) });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { object: string }).object).toBe('chat.completion');
  });
});

describe('a run with presets', () => {
  const evals =
    'suite: presets\ntarget: agent\ncases:\n  - { id: a, input: "1", assert: [{ type: judge, criteria: the reply answers, severity: gate }] }\n  - { id: b, input: "2", assert: [{ type: judge, criteria: the reply answers, severity: gate }] }\n';

  it('--judge-batch with an ollama judge: judged live (no batch, no key), and the run says so once', async () => {
    const fake = await startFakeOpenAI({ script: () => ({ json: { score: 0.9, reason: 'answers', evidence: [] }, usage: { input: 50, output: 10 } }) });
    fakes.push(fake);
    const env = { OLLAMA_BASE_URL: fake.url };
    const run = await runInProcess({
      files: { 'p.eval.yaml': evals },
      config: { targets: { agent: (input: string) => `answer ${input}` }, judge: 'ollama:llama3.2', earlyStop: false },
      env,
      flags: { judgeBatch: true, cache: false },
      beforeRun: (settings, cases) => checkApiKeys(settings, cases),
      judges: (settings, deps) => createJudgeService({ settings: settings.judging, ...deps, env }),
    });

    expect(run.results.cases.map((c) => c.trials[0]!.verdict)).toEqual(['passed', 'passed']);
    expect(fake.requests.map((r) => r.path)).toEqual(['/v1/chat/completions', '/v1/chat/completions']);
    expect(fake.batches.creates).toEqual([]);
    expect(run.warnings.filter((w) => w.includes('no batch API'))).toEqual(['--judge-batch: ollama has no batch API; its judge calls are made live, at the full price']);
    // A local model costs nothing: the judge's cost is known, and 0 (not null, not a warning).
    expect(run.results.summary.usage.judge).toMatchObject({ calls: 2, inputTokens: 100, costUsd: 0 });
    expect(run.warnings.filter((w) => w.includes('no price known'))).toEqual([]);
  });

  it('a groq judge (structured output in text): no response_format, the schema stated in the prompt, the JSON read from the reply', async () => {
    const fake = await startFakeOpenAI({
      script: (body) => ({ text: /Is it polite/.test(JSON.stringify(body)) ? 'Here: {"score": 0.1, "reason": "rude", "evidence": []}' : '{"score": 0.9, "reason": "answers", "evidence": []}' }),
    });
    fakes.push(fake);
    const env = { GROQ_API_KEY: 'gsk-test-0123456789', GROQ_BASE_URL: fake.url };
    const files = {
      'p.eval.yaml':
        'suite: presets\ntarget: agent\ncases:\n  - { id: a, input: "1", assert: [{ type: judge, criteria: the reply answers, severity: gate }] }\n  - { id: b, input: "2", assert: [{ type: judge, criteria: Is it polite?, severity: gate }] }\n',
    };
    const run = await runInProcess({
      files,
      config: { targets: { agent: (input: string) => `answer ${input}` }, judge: 'groq:llama-3.3-70b-versatile', earlyStop: false },
      env,
      flags: { cache: false },
      judges: (settings, deps) => createJudgeService({ settings: settings.judging, ...deps, env }),
    });

    expect(run.results.cases.map((c) => c.trials[0]!.verdict)).toEqual(['passed', 'failed']);
    expect(fake.bodies).toHaveLength(2);
    for (const body of fake.bodies) {
      expect(body).not.toHaveProperty('response_format');
      const system = String(body.messages[0].content);
      expect(system).toContain('Respond with only a JSON object that matches this JSON Schema:');
      expect(system).toMatch(/"score"/);
    }
  });

  it('an ollama model with maxTokens sends max_tokens (its quirk), never max_completion_tokens', async () => {
    const fake = await fakeFor(PROVIDERS.find((p) => p.id === 'ollama')!);
    await createProvider({ provider: 'ollama', model: 'llama3.2', maxTokens: 300 }, { OLLAMA_BASE_URL: fake.url }, { limiters: new ProviderLimiters() }).complete({
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(fake.bodies[0]).toMatchObject({ max_tokens: 300 });
    expect(fake.bodies[0]).not.toHaveProperty('max_completion_tokens');
  });

  it("a preset never gets OpenAI's organization and project headers from the environment", async () => {
    const fake = await fakeFor(PROVIDERS.find((p) => p.id === 'groq')!);
    fake.push({ text: 'again' });
    const env = { GROQ_API_KEY: 'gsk-test-0123456789', GROQ_BASE_URL: fake.url, OPENAI_API_KEY: 'sk-test-0000', OPENAI_BASE_URL: fake.url };
    const ask = { messages: [{ role: 'user' as const, content: 'hi' }] };
    const saved = { org: process.env.OPENAI_ORG_ID, project: process.env.OPENAI_PROJECT_ID };
    process.env.OPENAI_ORG_ID = 'org-secret-team';
    process.env.OPENAI_PROJECT_ID = 'proj-secret';
    try {
      await createProvider('groq:llama-3.3-70b-versatile', env, { limiters: new ProviderLimiters() }).complete(ask);
      await createProvider('openai:gpt-5.4-mini', env, { limiters: new ProviderLimiters() }).complete(ask);
    } finally {
      for (const [name, value] of [
        ['OPENAI_ORG_ID', saved.org],
        ['OPENAI_PROJECT_ID', saved.project],
      ] as const) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    }
    const [groq, openai] = fake.requests;
    expect([groq!.headers['openai-organization'], groq!.headers['openai-project']]).toEqual([undefined, undefined]);
    expect([openai!.headers['openai-organization'], openai!.headers['openai-project']]).toEqual(['org-secret-team', 'proj-secret']);
  });

  it("the key check before a run names a hosted preset's variable", async () => {
    await expect(
      runInProcess({
        files: { 'p.eval.yaml': evals },
        config: { targets: { agent: (input: string) => `answer ${input}` }, judge: 'groq:some-model', earlyStop: false },
        env: {},
        beforeRun: (settings, cases) => checkApiKeys(settings, cases),
      }),
    ).rejects.toThrow('GROQ_API_KEY is not set: needed by the judges of presets/a, presets/b (config judge)');
  });
});
