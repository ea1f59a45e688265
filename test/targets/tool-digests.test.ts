import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { tool, type Tool } from '../../src/targets/tool.js';
import { toolDigest, toolDigests } from '../../src/targets/tool-digests.js';
import { caseToolsFingerprint } from '../../src/targets/case-tools-fingerprint.js';
import type { TrialResult } from '../../src/core/results-schema.js';

const lookup = (description: string, parameters: z.ZodObject = z.object({ orderId: z.string() })) => tool({ name: 'orders_lookup', description, parameters, execute: () => 'ok' });

describe('toolDigest: the tool as the model is offered it', () => {
  it('moves with the description, the input schema and a declared output schema; not with the implementation', () => {
    const base = toolDigest(lookup('Look up an order'));
    expect(toolDigest(lookup('Look up an order'))).toBe(base);
    expect(toolDigest({ ...lookup('Look up an order'), execute: () => 'other' })).toBe(base);
    expect(toolDigest(lookup('Look up one order'))).not.toBe(base);
    expect(toolDigest(lookup('Look up an order', z.object({ orderId: z.number() })))).not.toBe(base);
    const withOutput: Tool = { ...lookup('Look up an order'), outputSchema: { type: 'object', properties: { status: { type: 'string' } } } };
    expect(toolDigest(withOutput)).not.toBe(base);
    // Key order inside a schema is not a change.
    expect(toolDigest({ ...withOutput, outputSchema: { properties: { status: { type: 'string' } }, type: 'object' } })).toBe(toolDigest(withOutput));
  });

  it('toolDigests: each tool by name', () => {
    const refund = tool({ name: 'issue_refund', parameters: z.object({}), execute: () => 'ok' });
    expect(toolDigests([lookup('x'), refund])).toEqual({ orders_lookup: toolDigest(lookup('x')), issue_refund: toolDigest(refund) });
  });
});

describe('caseToolsFingerprint: the case part from what its trials recorded', () => {
  const trial = (toolDigests?: Record<string, string>) => ({ trace: toolDigests ? { toolDigests } : {} }) as TrialResult;

  it('each tool by its first definition; the hash sees a definition that differed between trials; none recorded, no part', () => {
    const same = caseToolsFingerprint([trial({ a: '1', b: '2' }), trial({ a: '1', b: '2' })])!;
    expect(same.tools).toEqual({ a: '1', b: '2' });
    const differed = caseToolsFingerprint([trial({ a: '1', b: '2' }), trial({ a: '9', b: '2' })])!;
    expect(differed.tools).toEqual({ a: '1', b: '2' });
    expect(differed.hash).not.toBe(same.hash);
    expect(caseToolsFingerprint([trial(), trial()])).toBeUndefined();
    // A model agent offered no tools still has a part: adding its first tool is a change.
    expect(caseToolsFingerprint([trial({})])).toEqual({ hash: expect.any(String), tools: {} });
  });

  it('a tool named like an Object property is a tool like any other', () => {
    const part = caseToolsFingerprint([trial(JSON.parse('{"__proto__":"1","constructor":"2"}') as Record<string, string>)])!;
    expect(Object.keys(part.tools).sort()).toEqual(['__proto__', 'constructor']);
    expect(Object.getPrototypeOf(part.tools)).toBe(Object.prototype);
  });
});
