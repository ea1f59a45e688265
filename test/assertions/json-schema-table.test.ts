/**
 * `jsonSchema` against a real JSON Schema validator: each row is a schema, a reply and the verdict
 * the JSON Schema specification gives, written by hand. The first rows are the ones a lossy
 * schema translation got wrong (passing what must fail, failing what must pass, refusing valid
 * schemas).
 */
import { describe, expect, it } from 'vitest';
import { check, loadErrors, makeCtx } from './helpers.js';

type Row = [name: string, schema: Record<string, unknown>, reply: string, pass: boolean];

const DRAFT_07 = 'http://json-schema.org/draft-07/schema#';

const rows: Row[] = [
  // Passed when they must fail.
  ['required names a key not under properties', { type: 'object', properties: { a: { type: 'string' } }, required: ['a', 'b'] }, '{"a":"x"}', false],
  ['required without type', { required: ['id'] }, '{"name":"x"}', false],
  ['required without type, present', { required: ['id'] }, '{"id":1}', true],
  ['properties without type', { properties: { n: { type: 'number' } } }, '{"n":"seven"}', false],
  ['minimum without type', { minimum: 5 }, '3', false],
  ['minimum without type ignores a string', { minimum: 5 }, '"three"', true],
  ['minLength without type', { minLength: 3 }, '"ab"', false],
  ['minItems on an array without items', { type: 'array', minItems: 2 }, '[1]', false],
  ['maxItems on an array without items', { type: 'array', maxItems: 1 }, '[1,2]', false],
  ['allOf branches without type', { allOf: [{ required: ['a'] }, { properties: { a: { minimum: 10 } } }] }, '{"a":5}', false],
  ['allOf branches without type, both hold', { allOf: [{ required: ['a'] }, { properties: { a: { minimum: 10 } } }] }, '{"a":12}', true],
  ['items {type: object, required: [id]}', { type: 'array', items: { type: 'object', required: ['id'] } }, '[{"id":1},{"name":"x"}]', false],
  // Failed when they must pass.
  ['enum with object members', { enum: [{ a: 1 }, { b: 2 }] }, '{"b":2}', true],
  ['enum with object members, no member equal', { enum: [{ a: 1 }, { b: 2 }] }, '{"b":3}', false],
  ['pattern \\p{L}+ on "héllo"', { type: 'string', pattern: '\\p{L}+' }, '"héllo"', true],
  ['anchored \\p{L}+ on a digit', { type: 'string', pattern: '^\\p{L}+$' }, '"hé1lo"', false],
  ['^.$ on an emoji', { type: 'string', pattern: '^.$' }, '"😀"', true],
  ['^.$ on two characters', { type: 'string', pattern: '^.$' }, '"ab"', false],
  // Refused to load although valid.
  ['not', { not: { type: 'string' } }, '1', true],
  ['not, violated', { not: { type: 'string' } }, '"x"', false],
  ['if/then, then violated', { if: { properties: { kind: { const: 'refund' } }, required: ['kind'] }, then: { required: ['amount'] } }, '{"kind":"refund"}', false],
  ['if/then, then holds', { if: { properties: { kind: { const: 'refund' } }, required: ['kind'] }, then: { required: ['amount'] } }, '{"kind":"refund","amount":5}', true],
  ['if/then, if does not apply', { if: { properties: { kind: { const: 'refund' } }, required: ['kind'] }, then: { required: ['amount'] } }, '{"kind":"info"}', true],
  [
    'draft-07 definitions + $ref',
    { $schema: DRAFT_07, definitions: { sku: { type: 'string', pattern: '^X-' } }, type: 'object', properties: { sku: { $ref: '#/definitions/sku' } } },
    '{"sku":"X-1"}',
    true,
  ],
  [
    'draft-07 definitions + $ref, violated',
    { $schema: DRAFT_07, definitions: { sku: { type: 'string', pattern: '^X-' } }, type: 'object', properties: { sku: { $ref: '#/definitions/sku' } } },
    '{"sku":"Y-1"}',
    false,
  ],
  // The rest of the language, in both directions.
  ['2020-12 $defs + $ref', { $defs: { id: { type: 'integer' } }, type: 'object', properties: { id: { $ref: '#/$defs/id' } } }, '{"id":1.5}', false],
  ['integer accepts 2.0', { type: 'integer' }, '2.0', true],
  ['type list', { type: ['string', 'null'] }, 'null', true],
  ['additionalProperties false', { type: 'object', properties: { a: {} }, additionalProperties: false }, '{"a":1,"b":2}', false],
  ['const', { const: 'ok' }, '"ok"', true],
  ['oneOf matching both branches', { oneOf: [{ type: 'number' }, { minimum: 0 }] }, '3', false],
  ['anyOf matching one branch', { anyOf: [{ type: 'string' }, { type: 'number' }] }, '3', true],
  ['uniqueItems with equal objects', { type: 'array', uniqueItems: true }, '[{"a":1},{"a":1}]', false],
  ['prefixItems with items false', { type: 'array', prefixItems: [{ type: 'string' }, { type: 'number' }], items: false }, '["a",1,true]', false],
  ['contains', { type: 'array', contains: { type: 'string', const: 'refund' } }, '["ship","refund"]', true],
  ['exclusiveMaximum', { type: 'number', exclusiveMaximum: 10 }, '10', false],
  ['multipleOf', { type: 'number', multipleOf: 0.5 }, '2.5', true],
  ['dependentRequired', { dependentRequired: { card: ['cvv'] } }, '{"card":"4111"}', false],
  ['propertyNames', { propertyNames: { pattern: '^[a-z]+$' } }, '{"ok":1,"Bad":2}', false],
  ['format email', { type: 'string', format: 'email' }, '"a@example.com"', true],
  ['format email, not an address', { type: 'string', format: 'email' }, '"not an address"', false],
  ['format date-time', { type: 'string', format: 'date-time' }, '"2026-02-30T10:00:00Z"', false],
  ['format uuid', { type: 'string', format: 'uuid' }, '"3f2b8c1e-9d4a-4b6f-8e2a-1c5d7f9b0a3e"', true],
  ['an x- annotation checks nothing', { type: 'string', 'x-owner': 'support' }, '"a"', true],
  ['annotations (title, description, examples)', { title: 'T', description: 'd', examples: [1], type: 'number' }, '"1"', false],
  ['a reply that is not JSON', { type: 'string' }, 'hello', false],
  ['a fenced reply is not JSON', { type: 'object' }, '```json\n{}\n```', false],
  ['empty schema accepts anything', {}, '[1,"a",null]', true],
];

describe('jsonSchema: verdicts of the JSON Schema specification', () => {
  it('has enough rows to mean something', () => {
    expect(rows.length).toBeGreaterThanOrEqual(30);
  });
  it.each(rows)('%s', (_name, schema, reply, pass) => {
    expect(loadErrors({ type: 'jsonSchema', schema }), 'the schema must load').toEqual([]);
    const out = check({ type: 'jsonSchema', schema }, makeCtx({ reply }));
    expect(out.score, out.message).toBe(pass ? 1 : 0);
    expect(out.message).toMatch(pass ? /^jsonSchema: reply matches the schema$/ : /^jsonSchema: reply (does not match the schema \(\d+ issues?\)|\(\d+ chars?\) is not JSON)/);
  });
});
