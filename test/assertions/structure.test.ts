import { describe, it, expect } from 'vitest';
import { check, loadErrors, makeCtx } from './helpers.js';

const order = JSON.stringify({ order: { id: 'A1049', items: [{ sku: 'X-1', qty: 2 }], note: null } });
const ctx = makeCtx({ reply: order });
const prose = makeCtx({ reply: 'Sure! Here it is.' });

describe('isJson', () => {
  it('passes on JSON and names its kind', () => {
    expect(check({ type: 'isJson' }, ctx)).toEqual({ score: 1, message: 'isJson: reply parses as JSON (object)' });
    expect(check({ type: 'isJson' }, makeCtx({ reply: ' [1, 2] \n' }))).toEqual({ score: 1, message: 'isJson: reply parses as JSON (array)' });
  });
  it('fails on prose and on a fenced block', () => {
    const out = check({ type: 'isJson' }, prose);
    expect(out.score).toBe(0);
    expect(out.message).toMatch(/^isJson: reply \(17 chars\) is not JSON \(.+\)$/);
    expect(check({ type: 'isJson' }, makeCtx({ reply: '```json\n{}\n```' })).score).toBe(0);
  });
});

describe('jsonPath', () => {
  it('reads dotted and bracket paths, with or without $', () => {
    expect(check({ type: 'jsonPath', path: '$.order.id' }, ctx)).toEqual({ score: 1, message: 'jsonPath $.order.id exists: found "A1049"' });
    expect(check({ type: 'jsonPath', path: 'order.items[0].sku', equals: 'X-1' }, ctx)).toEqual({
      score: 1,
      message: 'jsonPath order.items[0].sku equals "X-1": found "X-1"',
    });
    expect(check({ type: 'jsonPath', path: `$['order']["items"][0]`, equals: { qty: 2, sku: 'X-1' } }, ctx).score).toBe(1);
  });
  it('fails when the value differs', () => {
    expect(check({ type: 'jsonPath', path: '$.order.items[0].qty', equals: 3 }, ctx)).toEqual({
      score: 0,
      message: 'jsonPath $.order.items[0].qty equals 3: found 2',
    });
    expect(check({ type: 'jsonPath', path: '$.order.items', equals: [{ sku: 'X-1' }] }, ctx).score).toBe(0);
  });
  it('fails when the path is missing and says which step', () => {
    expect(check({ type: 'jsonPath', path: '$.order.customer.email' }, ctx)).toEqual({
      score: 0,
      message: 'jsonPath $.order.customer.email exists: not found ($.order.customer does not exist)',
    });
    expect(check({ type: 'jsonPath', path: '$.order.items[3]' }, ctx)).toEqual({
      score: 0,
      message: 'jsonPath $.order.items[3] exists: not found ($.order.items[3] is out of range (length 1))',
    });
    expect(check({ type: 'jsonPath', path: '$.order.id[0]' }, ctx).message).toBe('jsonPath $.order.id[0] exists: not found ($.order.id is not an array)');
  });
  it('a null value exists; prototype keys do not', () => {
    expect(check({ type: 'jsonPath', path: '$.order.note', equals: null }, ctx).score).toBe(1);
    expect(check({ type: 'jsonPath', path: '$.order.constructor' }, ctx).score).toBe(0);
  });
  it('exists: false asserts absence', () => {
    expect(check({ type: 'jsonPath', path: '$.order.refund', exists: false }, ctx)).toEqual({
      score: 1,
      message: 'jsonPath $.order.refund is absent: not found ($.order.refund does not exist)',
    });
    expect(check({ type: 'jsonPath', path: '$.order.id', exists: false }, ctx)).toEqual({
      score: 0,
      message: 'jsonPath $.order.id is absent: found "A1049"',
    });
  });
  it('fails on a reply that is not JSON', () => {
    expect(check({ type: 'jsonPath', path: '$.a' }, prose).message).toMatch(/^jsonPath \$\.a exists: reply \(17 chars\) is not JSON \(/);
  });
  it('rejects bad paths and contradictions at load time', () => {
    expect(loadErrors({ type: 'jsonPath', path: '$.order..id' })[0]).toMatch(/^invalid JSON path: expected a key after "\." at char 8/);
    expect(loadErrors({ type: 'jsonPath', path: '$.items[x]' })[0]).toMatch(/^invalid JSON path: /);
    expect(loadErrors({ type: 'jsonPath', path: '$.a', equals: 1, exists: false })).toEqual([
      'jsonPath cannot both require a value (equals) and its absence (exists: false)',
    ]);
  });
});

describe('jsonSchema', () => {
  const schema = {
    type: 'object',
    properties: {
      order: {
        type: 'object',
        properties: { id: { type: 'string', pattern: '^A\\d+$' }, items: { type: 'array', items: { type: 'object', properties: { sku: { type: 'string' } }, required: ['sku'] } } },
        required: ['id', 'items'],
      },
    },
    required: ['order'],
  };
  it('passes when the parsed reply validates', () => {
    expect(check({ type: 'jsonSchema', schema }, ctx)).toEqual({ score: 1, message: 'jsonSchema: reply matches the schema' });
  });
  it('lists the issues with their paths', () => {
    const bad = makeCtx({ reply: JSON.stringify({ order: { id: 7, items: [{ qty: 1 }] } }) });
    const out = check({ type: 'jsonSchema', schema }, bad);
    expect(out.score).toBe(0);
    expect(out.message).toMatch(/^jsonSchema: reply does not match the schema \(2 issues\): \$\.order\.id: .*string.*; \$\.order\.items\[0\]\.sku: /);
  });
  it('caps the listed issues', () => {
    const strictNums = { type: 'array', items: { type: 'number' } };
    const out = check({ type: 'jsonSchema', schema: strictNums }, makeCtx({ reply: '["a","b","c","d","e"]' }));
    expect(out.message).toMatch(/\(5 issues\): \$\[0\]: .*; \$\[1\]: .*; \$\[2\]: .*; and 2 more$/);
  });
  it('fails on a reply that is not JSON', () => {
    expect(check({ type: 'jsonSchema', schema }, prose).message).toMatch(/^jsonSchema: reply \(17 chars\) is not JSON \(/);
  });
  it('rejects an unusable schema at load time', () => {
    expect(loadErrors({ type: 'jsonSchema', schema: { type: 'bogus' } })).toEqual(['invalid JSON Schema: Unsupported type: bogus']);
    expect(loadErrors({ type: 'jsonSchema', schema: 'string' })).toHaveLength(1);
  });
});
