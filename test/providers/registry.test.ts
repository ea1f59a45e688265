/**
 * The provider registry is the one place providers are spelled: every entry, presets included, is
 * accepted by the `provider:model` grammar and the schema, listed in the published eval-file schema,
 * the CLI help and the providers reference page, and resolves its key and endpoint variables, its quirks and (local
 * servers) its price, with no other edit. No source file outside the registry names a preset.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { glob } from 'tinyglobby';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { buildProgram } from '../../src/cli/program.js';
import { ProviderConfigError } from '../../src/core/errors.js';
import { capabilitiesOf } from '../../src/providers/capability-lookup.js';
import { apiKeyEnvOf, ModelSpecObjectSchema, parseModelSpec, ProviderIdSchema, resolveApiKey, resolveBaseURL, resolveEndpoint, type ModelSpec } from '../../src/providers/model-spec.js';
import { priceUsage } from '../../src/providers/pricing.js';
import { providerListMarkdown } from '../../src/providers/provider-docs.js';
import { PROVIDER_IDS, PROVIDERS, providerDescriptor, wireOf } from '../../src/providers/registry.js';
import type { ProviderId } from '../../src/providers/types.js';
import { jsonSchemas } from '../../src/suite/json-schemas.js';
import { specCapabilities, wireDescriptor } from '../../src/providers/wires.js';
import { REPO_ROOT } from '../support/cli.js';

// A provider with a wire of its own (Anthropic, Claude on Bedrock) is spelled as that wire's id in its wire module too.
const presets = PROVIDERS.filter((p) => p.id !== p.wire);

describe('ProviderId is the union of the registry ids', () => {
  it('at the type level: the type, the schema and the model spec agree, and no id is widened to string', () => {
    expectTypeOf<ProviderId>().toEqualTypeOf<'openai' | 'anthropic' | 'ollama' | 'vllm' | 'lmstudio' | 'groq' | 'together' | 'openrouter' | 'gemini' | 'google' | 'azure' | 'bedrock' | 'vertex'>();
    expectTypeOf<ProviderId>().toEqualTypeOf<(typeof PROVIDERS)[number]['id']>();
    expectTypeOf<z.infer<typeof ProviderIdSchema>>().toEqualTypeOf<ProviderId>();
    expectTypeOf<ModelSpec['provider']>().toEqualTypeOf<ProviderId>();
    expectTypeOf<string>().not.toExtend<ProviderId>();
  });

  it('at run time: the schema enum is the registry, in its order, ids unique', () => {
    expect(ProviderIdSchema.meta()?.enum).toEqual(PROVIDERS.map((p) => p.id));
    expect(new Set(PROVIDER_IDS).size).toBe(PROVIDERS.length);
    // An id fits the judge-reference grammar and the `pricing` key grammar as it is.
    for (const id of PROVIDER_IDS) expect(id).toMatch(/^[a-z][a-z0-9-]*$/);
    expect(presets.map((p) => p.id)).toEqual(['ollama', 'vllm', 'lmstudio', 'groq', 'together', 'openrouter', 'gemini', 'azure']);
    // Every preset is an OpenAI-compatible server, with its source and the date it was read.
    for (const p of presets) expect({ id: p.id, wire: p.wire, asOf: p.asOf, sourced: p.source.length > 10 }).toEqual({ id: p.id, wire: 'openai', asOf: '2026-12-01', sourced: true });
  });
});

describe.each(PROVIDERS.map((p) => [p.id, p] as const))('registry entry %s', (id, d) => {
  it('is accepted by the provider:model grammar and the object form (the model may hold colons)', () => {
    expect(parseModelSpec(`${id}:some-model`)).toEqual({ provider: id, model: 'some-model' });
    expect(parseModelSpec(`${id}:llama3.2:8b`)).toEqual({ provider: id, model: 'llama3.2:8b' });
    expect(parseModelSpec({ provider: id, model: 'm' })).toEqual({ provider: id, model: 'm' });
  });

  it('is listed in the JSON Schema of a model spec and of the eval file', () => {
    const spec = z.toJSONSchema(ModelSpecObjectSchema);
    expect(spec.properties?.['provider']).toMatchObject({ enum: expect.arrayContaining([id]) });
    expect(JSON.stringify(jsonSchemas()['eval-file.schema.json'])).toContain(JSON.stringify(PROVIDER_IDS));
  });

  it('is named in the help text of `run --judge` and `calibrate --judge`', async () => {
    const program = await buildProgram(['--help']);
    for (const name of ['run', 'calibrate']) {
      const judge = program.commands.find((c) => c.name() === name)!.options.find((o) => o.long === '--judge')!;
      expect(judge.description.split(/[ ,()]+/), name).toContain(id);
    }
  });

  it('has its row in the providers reference page', () => {
    expect(providerListMarkdown()).toContain(`| \`${id}\` | ${d.label} | \`${d.keyEnv}\``);
  });

  it('resolves its key and endpoint variables', () => {
    // A cloud's region is needed whatever the endpoint (it is in its request paths and signatures).
    const region = d.region ? { [d.region.env]: 'r1' } : {};
    expect(apiKeyEnvOf({ provider: id })).toBe(d.keyEnv);
    expect(resolveApiKey({ provider: id }, { [d.keyEnv]: ' k-1 ' })).toBe('k-1');
    expect(resolveBaseURL({ provider: id }, { [d.baseURLEnv]: 'http://127.0.0.1:9/v1' })).toBe('http://127.0.0.1:9/v1');
    expect(resolveEndpoint({ provider: id, baseURL: 'http://127.0.0.1:8/v1' }, { ...region, [d.baseURLEnv]: 'http://127.0.0.1:9/v1' })).toBe('http://127.0.0.1:8/v1');
    if (d.region) expect(resolveEndpoint({ provider: id }, region)).toBe(d.region.baseURL('r1'));
    else if (d.defaultBaseURL) expect(resolveEndpoint({ provider: id }, {})).toBe(d.defaultBaseURL);
  });

  it("applies its quirks over the table's row, and the spec's own capabilities over both", () => {
    const model = 'a-model-no-table-knows';
    expect(specCapabilities({ provider: id, model })).toEqual({ ...capabilitiesOf(wireDescriptor(d.wire), model), ...d.quirks });
    expect(specCapabilities({ provider: id, model, capabilities: { tokenParam: 'max_completion_tokens', structuredOutput: 'json_schema' } })).toMatchObject({
      tokenParam: 'max_completion_tokens',
      structuredOutput: 'json_schema',
    });
  });
});

describe('what the presets change', () => {
  it('quirks: the local servers and the many-model hosts send max_tokens; Groq, Together and OpenRouter judge in text mode', () => {
    const of = (id: ProviderId) => specCapabilities({ provider: id, model: 'some-model' });
    expect(of('openai')).toMatchObject({ tokenParam: 'max_completion_tokens', structuredOutput: 'json_schema' });
    for (const id of ['ollama', 'vllm', 'lmstudio', 'together', 'openrouter', 'gemini'] as const) expect(of(id).tokenParam, id).toBe('max_tokens');
    for (const id of ['groq', 'together', 'openrouter'] as const) expect(of(id).structuredOutput, id).toBe('text');
    expect(of('groq').tokenParam).toBe('max_completion_tokens');
    // Azure serves OpenAI's models under deployment names: no quirk, the table's rows apply.
    expect(specCapabilities({ provider: 'azure', model: 'gpt-4.1-mini' })).toEqual(specCapabilities({ provider: 'openai', model: 'gpt-4.1-mini' }));
  });

  it('a local server needs no key (a placeholder is sent unless its variable is set); a hosted one names its variable', () => {
    expect(resolveApiKey({ provider: 'ollama' }, {})).toBe('no-key');
    expect(resolveApiKey({ provider: 'vllm' }, { VLLM_API_KEY: 'served-with-this' })).toBe('served-with-this');
    expect(() => resolveApiKey({ provider: 'groq' }, {})).toThrow(new ProviderConfigError('missing API key for groq: set GROQ_API_KEY'));
    // A variable the spec names itself is required, local server or not.
    expect(() => resolveApiKey({ provider: 'ollama', apiKeyEnv: 'TEAM_OLLAMA_KEY' }, {})).toThrow('missing API key for ollama: set TEAM_OLLAMA_KEY');
  });

  it('Azure has no default endpoint: a configuration error names the variable', () => {
    expect(() => resolveEndpoint({ provider: 'azure' }, {})).toThrow(ProviderConfigError);
    expect(() => resolveEndpoint({ provider: 'azure' }, {})).toThrow(
      'no endpoint for azure: set AZURE_OPENAI_BASE_URL (https://<resource>.openai.azure.com/openai/v1/) or `baseURL` in the model spec',
    );
    expect(resolveEndpoint({ provider: 'azure' }, { AZURE_OPENAI_BASE_URL: 'https://acme.openai.azure.com/openai/v1/' })).toBe('https://acme.openai.azure.com/openai/v1/');
  });

  it("a local server's models cost nothing (its model ids may hold colons); a user price still wins; a hosted preset is unpriced", () => {
    const usage = { inputTokens: 1_000, outputTokens: 500 };
    expect(priceUsage('ollama:llama3.2:8b', usage)).toBe(0);
    expect(priceUsage('lmstudio:qwen2.5-7b-instruct', usage)).toBe(0);
    expect(priceUsage('ollama:llama3.2:8b', usage, { 'ollama:llama3.2:8b': { input: 1, output: 2 } })).toBe((1_000 * 1 + 500 * 2) / 1e6);
    expect(priceUsage('groq:some-model', usage)).toBeNull();
  });

  it('an unknown provider is refused, naming the registry', () => {
    expect(() => parseModelSpec('mistral:large')).toThrow(`expected "<provider>:<model>" with provider one of: ${PROVIDER_IDS.join(', ')}`);
  });

  it('wireOf: the presets speak OpenAI', () => {
    expect(PROVIDER_IDS.filter((id) => wireOf(id) === 'anthropic')).toEqual(['anthropic']);
    expect(providerDescriptor('groq').batch).toBe(false);
  });
});

describe('the registry is the only place a provider is spelled', () => {
  it('no source file outside the registry names a preset, nor spells the provider list as a union, enum or regex', async () => {
    const files = (await glob('src/**/*.ts', { cwd: REPO_ROOT })).filter((f) => f !== 'src/providers/registry.ts');
    const found: string[] = [];
    for (const file of files) {
      const text = readFileSync(join(REPO_ROOT, file), 'utf8');
      for (const p of presets) if (new RegExp(`['"\`]${p.id}['"\`]`).test(text)) found.push(`${file}: '${p.id}'`);
      // (The wire formats, `Wire = 'openai' | 'anthropic'`, are another list: the SDKs the project speaks.)
      for (const spelled of [/ProviderId\s*=\s*'/, /provider\??:\s*'openai'\s*\|/, /enum\(\[\s*'openai'/, /\(openai\|anthropic\)/]) if (spelled.test(text)) found.push(`${file}: ${spelled}`);
    }
    expect(found).toEqual([]);
  });

  it("the providers reference page holds the registry's provider list (`npm run docs` rewrites it)", () => {
    const page = readFileSync(join(REPO_ROOT, 'docs/reference/providers.md'), 'utf8');
    expect(page, 'docs/reference/providers.md is stale: run `npm run docs`').toContain(providerListMarkdown());
  });
});
