/** The run's one redactor: which values are secrets, and that every occurrence is replaced whole. */
import { describe, expect, it } from 'vitest';
import { SecretRedactor, envSecretValues } from '../../src/providers/secret-redactor.js';
import { runRedactor } from '../../src/runner/run-secrets.js';

describe('SecretRedactor', () => {
  it('replaces every occurrence, the longer of two overlapping secrets whole, in strings and keys of a value', () => {
    const r = new SecretRedactor(['abcdefgh12', 'abcdefgh1234567', 'short']);
    expect(r.redact('x abcdefgh1234567 y abcdefgh12 z short')).toBe('x [redacted] y [redacted] z short');
    expect(r.redactDeep({ a: ['abcdefgh12!'], abcdefgh12: 1, n: 3 })).toEqual({ a: ['[redacted]!'], '[redacted]': 1, n: 3 });
  });

  it('copies a cyclic value without pointing back into the unredacted original, and redacts what toJSON gives', () => {
    const r = new SecretRedactor(['abcdefgh12']);
    const node: Record<string, unknown> = { text: 'abcdefgh12', when: { toJSON: () => 'at abcdefgh12' } };
    node.self = node;
    expect(r.redactDeep(node)).toEqual({ text: '[redacted]', when: 'at [redacted]', self: '[Circular]' });
  });

  it('treats special characters in a secret literally', () => {
    const r = new SecretRedactor(['p4ss.w*rd(x)?']);
    expect(r.redact('p4ss.w*rd(x)? p4ssXwwrdx')).toBe('[redacted] p4ssXwwrdx');
  });
});

describe('the values a run knows to be secret', () => {
  const env = {
    OPENAI_API_KEY: 'openai-value-1234',
    GITHUB_TOKEN: 'github-value-1234',
    DB_PASSWORD_MAIN: 'db-value-12345',
    MY_CRED: 'named-by-apiKeyEnv-1',
    HOME: '/home/someone/long/path',
    SHORT_KEY: 'abc',
  };

  it('from the environment: variables named like secrets, ignoring very short values and ordinary variables', () => {
    expect(envSecretValues(env).sort()).toEqual(['db-value-12345', 'github-value-1234', 'openai-value-1234', 'abc'].sort());
    expect(new SecretRedactor(envSecretValues(env)).values).not.toContain('abc');
  });

  it('from the config: apiKeyEnv variables, header values and secret-named command env, for targets and judges', () => {
    const r = runRedactor({
      env,
      targets: {
        svc: { url: 'http://127.0.0.1:1', headers: { authorization: 'Bearer header-value-1' } },
        cmd: { command: ['x'], env: { SERVICE_TOKEN: 'cmd-env-value-1', MODE: 'plain-mode-value' } },
        agent: { model: { provider: 'openai', model: 'gpt-4.1-mini', headers: { 'x-org': 'org-header-value' } } },
      },
      judging: { judge: undefined, judges: { j: { provider: 'anthropic', model: 'claude', apiKeyEnv: 'MY_CRED' } } },
    });
    const text = r.redact(['Bearer header-value-1', 'cmd-env-value-1', 'org-header-value', 'named-by-apiKeyEnv-1', 'openai-value-1234', 'plain-mode-value', '/home/someone/long/path'].join(' '));
    expect(text).toBe('[redacted] [redacted] [redacted] [redacted] [redacted] plain-mode-value /home/someone/long/path');
  });
});
