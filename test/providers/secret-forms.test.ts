/** A secret's encoded forms, and the redactor replacing each wherever text holds it. */
import { describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { base64Forms, secretForms } from '../../src/providers/secret-forms.js';
import { REDACTED, SecretRedactor } from '../../src/providers/secret-redactor.js';

const QUOTED = 'tok"QUOTE\\BACKSLASH';

describe('secretForms', () => {
  it('gives the secret, its JSON escapes (once, twice, ASCII-only) and its percent-encodings, each once', () => {
    expect(secretForms(QUOTED)).toEqual(expect.arrayContaining([QUOTED, 'tok\\"QUOTE\\\\BACKSLASH', 'tok\\\\\\"QUOTE\\\\\\\\BACKSLASH', 'tok%22QUOTE%5CBACKSLASH']));
    expect(secretForms('line-one\nline-two')).toEqual(expect.arrayContaining(['line-one\\nline-two', 'line-one%0Aline-two', 'line-one%0aline-two']));
    const accented = secretForms("caf\u00e9 k3y!'(x)~");
    expect(accented).toEqual(expect.arrayContaining(["caf\\u00e9 k3y!'(x)~", "caf%C3%A9%20k3y!'(x)~", 'caf%C3%A9+k3y%21%27%28x%29%7E', 'caf%c3%a9+k3y%21%27%28x%29%7e']));
    // A plain token has no escaped or percent-encoded form of its own: only base64 adds to it.
    const plain = secretForms('abcdefgh12345');
    expect(new Set(plain).size).toBe(plain.length);
    expect(plain.filter((f) => !/^[A-Za-z0-9+/_=-]+$/.test(f) || f === 'abcdefgh12345')).toEqual(['abcdefgh12345']);
  });

  it('gives no percent-encoding of a lone surrogate, which has no UTF-8, and does not throw', () => {
    expect(secretForms('abc\uD800defgh').some((f) => f.includes('%'))).toBe(false);
  });

  it('base64: the secret alone (padded, unpadded, URL alphabet) and, at each of the 3 offsets, the characters made of its bits only', () => {
    const bytes = Buffer.from('tok?QUOTE>>BACK', 'utf8');
    const forms = base64Forms(bytes);
    expect(forms).toEqual(expect.arrayContaining([bytes.toString('base64'), bytes.toString('base64url')]));
    for (let before = 0; before < 6; before++) {
      for (const after of [0, 1, 2, 5]) {
        const stream = Buffer.concat([randomBytes(before), bytes, randomBytes(after)]);
        for (const encoding of ['base64', 'base64url'] as const) {
          const text = stream.toString(encoding);
          // Some form occurs in every encoding of a value that holds the secret, wherever it starts.
          expect({ before, after, encoding, found: forms.some((f) => text.includes(f)) }).toEqual({ before, after, encoding, found: true });
        }
      }
    }
  });
});

describe('SecretRedactor over encoded forms', () => {
  it("replaces a secret JSON-escaped as a judge's answer carries it, and again inside the JSON text of a value holding that answer", () => {
    const r = new SecretRedactor([QUOTED, 'line-one-1234\nline-two-5678']);
    const answer = JSON.stringify({ score: 0, reason: `saw ${QUOTED} and line-one-1234\nline-two-5678` });
    expect(r.redact(answer)).toBe(`{"score":0,"reason":"saw ${REDACTED} and ${REDACTED}"}`);
    // An event whose string holds the escaped form: its JSON text holds it escaped twice, and is still found.
    expect(r.redactDeep({ raw: answer })).toEqual({ raw: `{"score":0,"reason":"saw ${REDACTED} and ${REDACTED}"}` });
    // A text that is JSON of such a value (a file's text redacted whole).
    expect(r.redact(JSON.stringify({ raw: answer }))).not.toMatch(/QUOTE|line-one/);
  });

  it('replaces the URL-encoded and base64 forms, inside a longer base64 value too', () => {
    const secret = 'svc-pass/word+12';
    const r = new SecretRedactor([secret]);
    const basic = Buffer.from(`bob:${secret}`).toString('base64');
    const text = `q=${encodeURIComponent(secret)} b=${Buffer.from(secret).toString('base64')} u=${Buffer.from(secret).toString('base64url')} basic=${basic}`;
    const out = r.redact(text);
    expect(out.startsWith(`q=${REDACTED} b=${REDACTED} u=${REDACTED} basic=`)).toBe(true);
    // What is left of the Basic value around the marker decodes to no piece of the secret.
    const left = out.slice(out.indexOf('basic=') + 6).split(REDACTED);
    expect(left.map((p) => Buffer.from(p, 'base64').toString('latin1')).join('')).not.toMatch(/pass|word|svc-/);
    expect(r.redactDeep({ header: `Basic ${basic}` }).header).toContain(REDACTED);
  });

  it('keeps the minimum length: a short value gets no forms, and text about it stays', () => {
    const r = new SecretRedactor(['abc"de']);
    expect(r.forms).toEqual([]);
    expect(r.redact('abc\\"de YWJjImRl')).toBe('abc\\"de YWJjImRl');
  });
});
