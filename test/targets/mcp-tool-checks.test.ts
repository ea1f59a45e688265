import { describe, expect, it } from 'vitest';
import { invalidArgumentsFor, staticToolChecks } from '../../src/targets/mcp-tool-checks.js';
import { compileJsonSchema } from '../../src/assertions/json-schema-validator.js';

const tool = (over: Record<string, unknown> = {}) => ({
  name: 'get-sum',
  description: 'Adds two numbers',
  inputSchema: { type: 'object', properties: { a: { type: 'number' } }, required: ['a'] },
  ...over,
});
const statuses = (over: Record<string, unknown>, server = 'srv') => Object.fromEntries(staticToolChecks(tool(over) as never, server).map((c) => [c.check, c.status]));

describe('mcp-check on a tool list', () => {
  it('a well-formed tool passes every check', () => {
    expect(statuses({})).toEqual({ name: 'pass', description: 'pass', inputSchema: 'pass' });
  });

  it('names outside the MCP rule fail; names models refuse, or too long once prefixed, warn', () => {
    expect(statuses({ name: 'get sum' }).name).toBe('fail');
    expect(statuses({ name: 'x'.repeat(65) }).name).toBe('fail');
    expect(statuses({ name: 'admin.tools/list' }).name).toBe('warn');
    expect(statuses({ name: 'x'.repeat(60) }).name).toBe('warn');
  });

  it('a missing description fails, a very long one warns', () => {
    expect(statuses({ description: undefined }).description).toBe('fail');
    expect(statuses({ description: '  ' }).description).toBe('fail');
    expect(statuses({ description: 'd'.repeat(2049) }).description).toBe('warn');
  });

  it('an input or output schema that is not valid JSON Schema, or not an object at its root, fails', () => {
    expect(statuses({ inputSchema: { type: 'object', properties: { a: { type: 'numbr' } } } }).inputSchema).toBe('fail');
    expect(statuses({ inputSchema: { type: 'string' } }).inputSchema).toBe('fail');
    expect(statuses({ outputSchema: { type: 'object', required: 'a' } }).outputSchema).toBe('fail');
  });
});

describe('arguments a tool must refuse', () => {
  it('are ones its input schema rejects, or none when it accepts every object', () => {
    for (const schema of [
      { type: 'object', properties: { a: { type: 'number' } }, required: ['a'] },
      { type: 'object', properties: { s: { type: 'string' } } },
      { type: 'object', additionalProperties: false },
    ]) {
      const args = invalidArgumentsFor(schema);
      expect(args, JSON.stringify(schema)).toBeDefined();
      const compiled = compileJsonSchema(schema);
      expect(compiled.ok && compiled.validate(args).length > 0).toBe(true);
    }
    expect(invalidArgumentsFor({ type: 'object' })).toBeUndefined();
  });
});
