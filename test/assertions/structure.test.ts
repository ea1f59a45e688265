import { describe, it, expect } from 'vitest';
import { check, loadErrors, makeCtx } from './helpers.js';
import { deterministicAssertionRegistry } from '../../src/assertions/registry.js';

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
    expect(loadErrors({ type: 'jsonPath', path: '$.a', equals: 1, exists: false })).toEqual(['jsonPath cannot both require a value (equals) and its absence (exists: false)']);
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
  it('lists the issues with their paths and the value found', () => {
    const bad = makeCtx({ reply: JSON.stringify({ order: { id: 7, items: [{ qty: 1 }] } }) });
    const out = check({ type: 'jsonSchema', schema }, bad);
    expect(out).toEqual({
      score: 0,
      message: "jsonSchema: reply does not match the schema (2 issues): $.order.id: must be string (found 7); $.order.items[0]: must have required property 'sku'",
    });
  });
  it('names the extra property, the allowed values, and keys that are not identifiers', () => {
    const closed = { type: 'object', properties: { 'order id': { enum: ['A', 'B'] } }, additionalProperties: false };
    const out = check({ type: 'jsonSchema', schema: closed }, makeCtx({ reply: '{"order id":"C","x":1}' }));
    expect(out.message).toBe('jsonSchema: reply does not match the schema (2 issues): $: must not have the additional property "x"; $["order id"]: must be one of ["A","B"] (found "C")');
  });
  it('caps the listed issues', () => {
    const strictNums = { type: 'array', items: { type: 'number' } };
    const out = check({ type: 'jsonSchema', schema: strictNums }, makeCtx({ reply: '["a","b","c","d","e"]' }));
    expect(out.message).toMatch(/\(5 issues\): \$\[0\]: .*; \$\[1\]: .*; \$\[2\]: .*; and 2 more$/);
  });
  it('fails on a reply that is not JSON', () => {
    expect(check({ type: 'jsonSchema', schema }, prose).message).toMatch(/^jsonSchema: reply \(17 chars\) is not JSON \(/);
  });
  it('rejects an unusable schema at load time, pointing into it', () => {
    const def = deterministicAssertionRegistry.get('jsonSchema')!;
    const issuesOf = (schema: unknown) => def.schema.safeParse({ type: 'jsonSchema', schema }).error?.issues.map((i) => [i.path.join('.'), i.message]);
    expect(issuesOf({ type: 'object', properties: { a: { type: 'bogus' } } })).toEqual([
      ['schema.properties.a.type', 'invalid JSON Schema: must be one of ["array","boolean","integer","null","number","object","string"] (draft 2020-12)'],
    ]);
    expect(issuesOf({ minLength: 'x' })).toEqual([['schema.minLength', 'invalid JSON Schema: must be integer (draft 2020-12)']]);
    expect(issuesOf({ type: 'string', pattern: '(' })).toEqual([['schema', expect.stringMatching(/^invalid JSON Schema: Invalid regular expression: /)]]);
    expect(issuesOf({ $ref: '#/$defs/missing' })).toEqual([['schema', expect.stringMatching(/^invalid JSON Schema: can't resolve reference #\/\$defs\/missing/)]]);
    expect(issuesOf('string')).toHaveLength(1);
    // An async validator answers with a promise, which must not read as a pass.
    expect(issuesOf({ $async: true, type: 'string' })).toEqual([['schema.$async', 'invalid JSON Schema: "$async" schemas are not supported']]);
  });
  it('refuses unknown keywords and formats (they would check nothing), but takes x- annotations', () => {
    expect(loadErrors({ type: 'jsonSchema', schema: { type: 'string', minLenght: 3 } })).toEqual([
      'invalid JSON Schema: unknown keyword "minLenght" (it would check nothing; name an annotation "x-…")',
    ]);
    expect(loadErrors({ type: 'jsonSchema', schema: { type: 'array', items: { format: 'emial' } } })).toEqual(['invalid JSON Schema: unknown format "emial" at #/items']);
    expect(loadErrors({ type: 'jsonSchema', schema: { type: 'string', 'x-owner': 'support', properties: { a: { 'x-note': 1 } } } })).toEqual([]);
  });
  it('picks the draft from $schema: 2020-12 by default, draft-07 and 2019-09 when named, others refused', () => {
    // `items` as an array is a tuple in draft-07 and not allowed in 2020-12 (where it is `prefixItems`).
    const tuple = { type: 'array', items: [{ type: 'string' }, { type: 'number' }] };
    expect(loadErrors({ type: 'jsonSchema', schema: tuple })[0]).toBe('invalid JSON Schema: must be object or boolean (draft 2020-12)');
    const draft07 = { $schema: 'http://json-schema.org/draft-07/schema#', ...tuple };
    expect(check({ type: 'jsonSchema', schema: draft07 }, makeCtx({ reply: '["a", 1]' })).score).toBe(1);
    expect(check({ type: 'jsonSchema', schema: draft07 }, makeCtx({ reply: '[1, "a"]' })).score).toBe(0);
    const draft2019 = { $schema: 'https://json-schema.org/draft/2019-09/schema', dependentRequired: { a: ['b'] } };
    expect(check({ type: 'jsonSchema', schema: draft2019 }, makeCtx({ reply: '{"a":1}' })).score).toBe(0);
    expect(loadErrors({ type: 'jsonSchema', schema: { $schema: 'http://json-schema.org/draft-04/schema#' } })[0]).toMatch(
      /^invalid JSON Schema: unsupported \$schema "http:\/\/json-schema.org\/draft-04\/schema#" \(supported: /,
    );
  });
  it('two schemas with the same $id both load and each keeps its own rules', () => {
    const a = { $id: 'https://example.test/order', type: 'string' };
    const b = { $id: 'https://example.test/order', type: 'number' };
    expect(loadErrors({ type: 'jsonSchema', schema: a })).toEqual([]);
    expect(loadErrors({ type: 'jsonSchema', schema: b })).toEqual([]);
    expect(check({ type: 'jsonSchema', schema: a }, makeCtx({ reply: '1' })).score).toBe(0);
    expect(check({ type: 'jsonSchema', schema: b }, makeCtx({ reply: '1' })).score).toBe(1);
  });
});
