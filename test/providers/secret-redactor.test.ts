/** The run's one redactor: which values are secrets, and that every occurrence is replaced whole. */
import { describe, expect, it } from 'vitest';
import { SecretRedactor, envSecretValues } from '../../src/providers/secret-redactor.js';
import { runRedactor } from '../../src/providers/run-redactor.js';

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

  it('returns plain data with nothing to redact as it is, and copies only the path to a change, leaving the original whole', () => {
    const r = new SecretRedactor(['abcdefgh12']);
    const clean = { a: [{ b: 'plain' }, 2], c: { d: null, e: true } };
    expect(r.redactDeep(clean)).toBe(clean);
    const mixed = { keep: { x: 'plain' }, change: ['ok', { y: 'key abcdefgh12' }] };
    const out = r.redactDeep(mixed);
    expect(out).toEqual({ keep: { x: 'plain' }, change: ['ok', { y: 'key [redacted]' }] });
    expect(out.keep).toBe(mixed.keep);
    expect(mixed.change[1]).toEqual({ y: 'key abcdefgh12' });
    // Not plain data (an Error's message is not an own enumerable field): copied as JSON would write it, never passed through.
    const err = Object.assign(new Error('abcdefgh12'), { code: 'abcdefgh12' });
    expect(r.redactDeep({ err })).toEqual({ err: { code: '[redacted]' } });
  });

  it('does not walk again what the caller marks as already returned clean', () => {
    const r = new SecretRedactor(['abcdefgh12']);
    const trial = { reply: 'plain' };
    expect(r.redactDeep(trial)).toBe(trial);
    const seen = new WeakSet<object>([trial]);
    // Changed behind the redactor's back (never done by the runner): a marked object is trusted as it was.
    trial.reply = 'abcdefgh12';
    expect(r.redactDeep({ trials: [trial] }, seen).trials[0]).toBe(trial);
    expect(r.redactDeep({ trials: [trial] }).trials[0]).toEqual({ reply: '[redacted]' });
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

  it("the config's MCP servers: their headers and secret-named env values", () => {
    const r = runRedactor({
      env: {},
      targets: { tools: { mcp: 'remote' } },
      mcpServers: { remote: { url: 'http://127.0.0.1:1/mcp', headers: { authorization: 'Bearer mcp-header-value-1' } }, local: { command: 'x', env: { API_KEY: 'mcp-env-value-12' } } },
      judging: { judge: undefined, judges: {} },
    });
    expect(r.redact('mcp-header-value-1 mcp-env-value-12')).toBe('[redacted] [redacted]');
  });
});

describe("the cloud providers' credentials", () => {
  it("every provider's key variable is a secret whatever its name (a Bedrock API key), as are the AWS secret key and session token", () => {
    const cloud = { AWS_BEARER_TOKEN_BEDROCK: 'bedrock-api-key-value-1', AWS_SECRET_ACCESS_KEY: 'aws-secret-value-12345', AWS_SESSION_TOKEN: 'aws-session-value-1234', AWS_REGION: 'eu-west-1' };
    const r = runRedactor({ env: cloud, targets: {}, judging: { judge: undefined, judges: {} } });
    expect(r.redact('bedrock-api-key-value-1 aws-secret-value-12345 aws-session-value-1234 eu-west-1')).toBe('[redacted] [redacted] [redacted] eu-west-1');
  });
});

describe('credentials inside a secret value', () => {
  it('the token after an auth scheme, the decoded Basic password and credential-named parameters are secrets on their own', () => {
    const basic = Buffer.from('alice:basic-password-1').toString('base64');
    const r = new SecretRedactor(['Bearer bearer-token-123456', 'Token tok-abcdefgh12', `Basic ${basic}`, 'session=sess-value-12345; theme=darkmode-blue']);
    expect(r.redact('echo bearer-token-123456 and tok-abcdefgh12, pw basic-password-1, cookie sess-value-12345, theme darkmode-blue')).toBe(
      'echo [redacted] and [redacted], pw [redacted], cookie [redacted], theme darkmode-blue',
    );
  });

  it('a shaped token in any variable or config string is a secret, whatever its name', () => {
    const jwt = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJlLXZhbHVl';
    const r = runRedactor({
      env: { DATABASE_URL: 'postgres://app:db-url-password@db:5432/x', PLAIN: 'just a value', SESSION_JWT_HERE: jwt, NOTE: 'Basic settings apply', AUTH_NOTE: 'Bearer a1b2c3d4e5' },
      targets: { svc: { url: 'https://user:url-password-9@127.0.0.1:1/', headers: {} }, cmd: { command: ['x'], env: { GL: 'glpat-Xy12Ab34Cd56Ef78Gh90' } } },
      judging: { judge: undefined, judges: { j: { provider: 'openai', model: 'm', baseURL: 'https://k:AIzaSyA1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q@proxy' } } },
    });
    expect(r.redact(`db-url-password ${jwt} url-password-9 glpat-Xy12Ab34Cd56Ef78Gh90 AIzaSyA1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q a1b2c3d4e5 just a value, settings`)).toBe(
      '[redacted] [redacted] [redacted] [redacted] [redacted] [redacted] just a value, settings',
    );
  });
});

describe('a secret cut short before it was redacted', () => {
  it('its start before a cut mark and its end after one are redacted; short pieces and other text are left', () => {
    const r = new SecretRedactor(['abcdefgh12345678']);
    expect(r.redact('reply is "x abcdefgh12…" and …5678 tail')).toBe('reply is "x [redacted]…" and …[redacted] tail');
    expect(r.redact('keep abc… and …678 and abcdefgh12345678')).toBe('keep abc… and …678 and [redacted]');
  });
});

describe('a cut piece among repeats of its own start', () => {
  it('redacts the longest piece, not the first match', () => {
    const r = new SecretRedactor(['abcdabcdXYZ12345']);
    expect(r.redact('x abcdabcdXY…')).toBe('x [redacted]…');
    expect(r.redact('…12345 and 12345')).toBe('…[redacted] and 12345');
    expect(r.redact('…Z1234512345 z')).toBe('…[redacted]12345 z');
  });
});

describe('an event searched as JSON text before it is walked', () => {
  it('comes back as it is when its text holds no secret, a Date or class instance in it included', () => {
    const r = new SecretRedactor(['abcdefgh12']);
    class Step {
      constructor(readonly text: string) {}
    }
    const event = { at: new Date(0), step: new Step('plain'), n: 1 };
    // A walk copies what is not plain data; a text with no secret is not walked at all.
    expect(r.redactDeep(event)).toBe(event);
  });

  it('still redacts a secret JSON escapes (a quote, a backslash, a newline in it), in values and keys', () => {
    const secret = 'ab"cd\\ef\n1234';
    const r = new SecretRedactor([secret]);
    expect(r.redactDeep({ reply: `was ${secret}!`, [secret]: 1 })).toEqual({ reply: 'was [redacted]!', '[redacted]': 1 });
  });

  it('still redacts the start or end of a secret beside a cut mark, which its JSON text holds only in part', () => {
    const r = new SecretRedactor(['abcdefgh12345678']);
    expect(r.redactDeep({ messages: ['quote "x abcdefgh12…"', '…5678 tail'] })).toEqual({ messages: ['quote "x [redacted]…"', '…[redacted] tail'] });
    const cutClean = { message: 'a reply cut… short', other: 'abc' };
    expect(r.redactDeep(cutClean)).toBe(cutClean);
  });

  it('uses the JSON text the caller has, and walks what JSON refuses (a BigInt, a cycle)', () => {
    const r = new SecretRedactor(['abcdefgh12']);
    const value = { reply: 'abcdefgh12' };
    // The text the caller made before the value changed is what is searched: the runner changes nothing once reported.
    expect(r.redactDeep(value, undefined, JSON.stringify({ reply: 'plain' }))).toBe(value);
    expect(r.redactDeep({ n: 10n, reply: 'abcdefgh12' })).toEqual({ n: 10n, reply: '[redacted]' });
  });
});
