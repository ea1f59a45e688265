import { describe, it, expect } from 'vitest';
import { z } from 'zod';
import {
  customAssertionSchema,
  deterministicAssertionRegistry,
  deterministicAssertionSchemas,
  deterministicAssertionTypes,
  deterministicAssertions,
  finalAssertionTypes,
  isFinalAssertion,
} from '../../src/assertions/registry.js';

/** One minimal valid spec per YAML type: also pins the list of types the registry must hold. */
const minimal: Record<string, Record<string, unknown>> = {
  equals: { value: 'a' },
  contains: { value: 'a' },
  notContains: { value: 'a' },
  containsAll: { values: ['a'] },
  containsAny: { values: ['a'] },
  startsWith: { value: 'a' },
  endsWith: { value: 'a' },
  regex: { pattern: 'a' },
  lengthBetween: { min: 1 },
  isJson: {},
  jsonPath: { path: '$.a' },
  jsonSchema: { schema: { type: 'object' } },
  similarity: { value: 'a' },
  calledTool: { tool: 't' },
  notCalledTool: { tool: 't' },
  toolOrder: { tools: ['t'] },
  toolSequence: { tools: ['t'] },
  usedNoTools: {},
  maxToolCalls: { max: 1 },
  noToolErrors: {},
  onlyTools: { tools: ['t'] },
  noLeak: { values: ['v'] },
  maxSteps: { max: 1 },
  maxTokens: { max: 1 },
  maxLatencyMs: { max: 1 },
  maxCostUsd: { max: 1 },
};

describe('registry', () => {
  it('holds exactly the YAML types, without custom', () => {
    expect([...deterministicAssertionTypes].sort()).toEqual(Object.keys(minimal).sort());
    expect(deterministicAssertionTypes).not.toContain('custom');
    expect(deterministicAssertionRegistry.size).toBe(deterministicAssertionTypes.length);
  });
  it('keeps schemas aligned with definitions and their type literal', () => {
    expect(deterministicAssertionSchemas).toHaveLength(deterministicAssertions.length);
    deterministicAssertions.forEach((d, i) => {
      expect(deterministicAssertionSchemas[i]).toBe(d.schema);
      expect(d.schema.safeParse({ type: d.type, ...minimal[d.type] }).success).toBe(true);
    });
  });
  it('marks final exactly the types whose failure no later turn can undo', () => {
    expect(finalAssertionTypes).toEqual(['notContains', 'notCalledTool', 'usedNoTools', 'maxToolCalls', 'noToolErrors', 'onlyTools', 'noLeak']);
    expect(isFinalAssertion({ type: 'notCalledTool' })).toBe(true);
    expect(isFinalAssertion({ type: 'calledTool' })).toBe(false);
    expect(isFinalAssertion({ type: 'judge' })).toBe(false);
    expect(isFinalAssertion({ type: 'custom' })).toBe(false);
  });
  it('defaults to gate except similarity', () => {
    const soft = deterministicAssertions.filter((d) => d.defaultSeverity === 'soft').map((d) => d.type);
    expect(soft).toEqual(['similarity']);
  });
  it.each(Object.keys(minimal))('%s rejects unknown fields and accepts the common ones', (type) => {
    const schema = deterministicAssertionRegistry.get(type)!.schema;
    const bad = schema.safeParse({ type, ...minimal[type], colour: 'red' });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues.map((i) => i.message)).toEqual(['Unrecognized key: "colour"']);
    const common = { severity: 'soft', weight: 2, threshold: 0.5, label: 'mine' };
    expect(schema.safeParse({ type, ...minimal[type], ...common }).success).toBe(true);
    expect(schema.safeParse({ type, ...minimal[type], threshold: 2 }).success).toBe(false);
  });
  it('builds a discriminated union that routes by type', () => {
    const union = z.discriminatedUnion('type', [...deterministicAssertionSchemas, customAssertionSchema]);
    expect(union.safeParse({ type: 'toolOrder', tools: ['a', 'b'] }).success).toBe(true);
    expect(union.safeParse({ type: 'toolOrder', tool: 'a' }).success).toBe(false);
    expect(union.safeParse({ type: 'custom', name: 'n', fn: () => true }).success).toBe(true);
    expect(union.safeParse({ type: 'llmRubric', value: 'x' }).success).toBe(false);
    const badRegex = union.safeParse({ type: 'regex', pattern: '[' });
    expect(badRegex.error?.issues[0]?.message).toMatch(/^invalid regex \/\[\/: /);
    expect(badRegex.error?.issues[0]?.path).toEqual(['pattern']);
  });
});
