/**
 * The part of the judge cache key that describes the judge itself: it changes with everything that
 * can change an answer (endpoint as really called, headers, token limit) and not with what cannot
 * (key variable, retries, timeout, concurrency).
 */
import { describe, expect, it } from 'vitest';
import { judgeIdentity } from '../../src/judges/judge-identity.js';

const base = { provider: 'openai' as const, model: 'gpt-4.1-mini' };

describe('judgeIdentity', () => {
  it('follows the endpoint really called: spec baseURL, else the environment, else the default', () => {
    expect(judgeIdentity(base, {}).baseURL).toBe('https://api.openai.com/v1');
    expect(judgeIdentity('openai:gpt-4.1-mini', { OPENAI_BASE_URL: 'http://proxy.local/v1/' }).baseURL).toBe('http://proxy.local/v1');
    expect(judgeIdentity({ ...base, baseURL: 'http://other.local/v1' }, { OPENAI_BASE_URL: 'http://proxy.local/v1' }).baseURL).toBe('http://other.local/v1');
  });

  it('changes with headers and token limit, not with key variable, retries, timeout or concurrency', () => {
    const id = JSON.stringify(judgeIdentity(base, {}));
    for (const changed of [{ headers: { 'x-route': 'eu' } }, { maxTokens: 200 }, { model: 'gpt-4.1' }]) {
      expect(JSON.stringify(judgeIdentity({ ...base, ...changed }, {}))).not.toBe(id);
    }
    for (const same of [{ apiKeyEnv: 'MY_KEY' }, { maxRetries: 0 }, { timeoutMs: 5_000 }, { maxConcurrency: 2 }]) {
      expect(JSON.stringify(judgeIdentity({ ...base, ...same }, {}))).toBe(id);
    }
  });
});
