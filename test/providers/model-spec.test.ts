import { describe, expect, it } from 'vitest';
import { formatModelSpec, parseModelSpec, resolveApiKey, resolveBaseURL } from '../../src/providers/model-spec.js';
import { ProviderConfigError } from '../../src/core/errors.js';

describe('parseModelSpec', () => {
  it('reads provider:model strings', () => {
    expect(parseModelSpec('openai:gpt-4.1-mini')).toEqual({ provider: 'openai', model: 'gpt-4.1-mini' });
    expect(parseModelSpec('anthropic:claude-sonnet-4-5')).toEqual({ provider: 'anthropic', model: 'claude-sonnet-4-5' });
    expect(parseModelSpec('openai:ft:gpt-4o-mini:acme::abc123')).toEqual({ provider: 'openai', model: 'ft:gpt-4o-mini:acme::abc123' });
  });

  it('reads the object form', () => {
    const spec = {
      provider: 'openai',
      model: 'gpt-4.1',
      baseURL: 'http://127.0.0.1:8080/v1',
      apiKeyEnv: 'TEAM_KEY',
      headers: { 'x-team': 'evals' },
      temperature: 0,
      maxTokens: 512,
      maxRetries: 1,
      timeoutMs: 5000,
      maxConcurrency: 2,
    };
    expect(parseModelSpec(spec)).toEqual(spec);
    expect(formatModelSpec(parseModelSpec(spec))).toBe('openai:gpt-4.1');
  });

  it.each([
    ['gpt-4.1'],
    ['nosuch:gemini-2.5-pro'],
    ['openai:'],
    [{ provider: 'openai' }],
    [{ provider: 'openai', model: 'x', apiKeyEnv: 'not a var' }],
    [{ provider: 'openai', model: 'x', typo: true }],
    [{ provider: 'openai', model: 'x', baseURL: 'not a url' }],
  ])('rejects %j with a ProviderConfigError', (input) => {
    expect(() => parseModelSpec(input)).toThrow(ProviderConfigError);
  });

  it('names the bad field', () => {
    expect(() => parseModelSpec({ provider: 'openai', model: 'x', maxRetries: -1 })).toThrow(/maxRetries/);
  });
});

describe('resolveApiKey', () => {
  it('reads the default variable of each provider', () => {
    expect(resolveApiKey({ provider: 'openai' }, { OPENAI_API_KEY: 'k1' })).toBe('k1');
    expect(resolveApiKey({ provider: 'anthropic' }, { ANTHROPIC_API_KEY: 'k2' })).toBe('k2');
  });

  it('reads a custom variable', () => {
    expect(resolveApiKey({ provider: 'openai', apiKeyEnv: 'TEAM_KEY' }, { TEAM_KEY: 'k3', OPENAI_API_KEY: 'other' })).toBe('k3');
  });

  it('names the missing variable', () => {
    expect(() => resolveApiKey({ provider: 'openai' }, {})).toThrow('missing API key for openai: set OPENAI_API_KEY');
    expect(() => resolveApiKey({ provider: 'anthropic', apiKeyEnv: 'TEAM_KEY' }, { TEAM_KEY: '' })).toThrow('missing API key for anthropic: set TEAM_KEY');
  });
});

describe('resolveBaseURL', () => {
  it('prefers the spec, then the provider variable, else the SDK default', () => {
    expect(resolveBaseURL({ provider: 'openai', baseURL: 'http://a/v1' }, { OPENAI_BASE_URL: 'http://b/v1' })).toBe('http://a/v1');
    expect(resolveBaseURL({ provider: 'openai' }, { OPENAI_BASE_URL: 'http://b/v1' })).toBe('http://b/v1');
    expect(resolveBaseURL({ provider: 'anthropic' }, { OPENAI_BASE_URL: 'http://b/v1' })).toBeUndefined();
  });
});
