import { describe, expect, it } from 'vitest';
import { spansFromOtlpJson, TOO_DEEP } from '../../src/adapters/otlp-json.js';

const doc = (attributes: unknown[]) => ({ resourceSpans: [{ scopeSpans: [{ spans: [{ traceId: 't', spanId: 's', name: 'x', attributes }] }] }] });

describe('spansFromOtlpJson attribute values', () => {
  it('keeps an attribute key `__proto__` as data: an own field, the record’s prototype untouched', () => {
    const [span] = spansFromOtlpJson(doc([{ key: '__proto__', value: { kvlistValue: { values: [{ key: 'polluted', value: { stringValue: 'yes' } }] } } }]))!;
    const attrs = span!.attributes;
    expect(Object.getPrototypeOf(attrs)).toBe(Object.prototype);
    expect((attrs as { polluted?: unknown }).polluted).toBeUndefined();
    expect(Object.keys(attrs)).toEqual(['__proto__']);
    expect(Object.getOwnPropertyDescriptor(attrs, '__proto__')?.value).toEqual({ polluted: 'yes' });
  });

  it('cuts a value nested 100,000 arrays deep (no stack overflow)', () => {
    let value: unknown = { stringValue: 'bottom' };
    for (let i = 0; i < 100_000; i++) value = { arrayValue: { values: [value] } };
    const [span] = spansFromOtlpJson(doc([{ key: 'deep', value }]))!;
    let v = span!.attributes['deep'];
    let depth = 0;
    while (Array.isArray(v)) {
      v = v[0];
      depth++;
    }
    expect(v).toBe(TOO_DEEP);
    expect(depth).toBe(64);
  });
});
