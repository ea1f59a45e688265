/**
 * A bounded number's message: what it expects, and for a required field left out, that it is required
 * (a missing `simulatedUser.maxTurns` read only "expected a whole number from 1 to 100").
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { boundedNumber } from '../../src/core/bounds.js';

const turns = { min: 1, max: 100, integer: true, why: 'each turn is a call' };
const messages = (schema: z.ZodType, value: unknown) => {
  const r = schema.safeParse(value);
  return r.success ? [] : r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
};

describe('boundedNumber', () => {
  const schema = z.object({ maxTurns: boundedNumber(turns), timeoutMs: boundedNumber(turns).optional() });

  it('a required field left out says it is required, and what it expects', () => {
    expect(messages(schema, {})).toEqual([`maxTurns: required: expected a whole number from 1 to 100 (each turn is a call)`]);
  });

  it('a value out of bounds or of the wrong type says what it expects; an optional one left out is fine', () => {
    expect(messages(schema, { maxTurns: 0 })).toEqual([`maxTurns: expected a whole number from 1 to 100 (each turn is a call)`]);
    expect(messages(schema, { maxTurns: 'ten' })).toEqual([`maxTurns: expected a whole number from 1 to 100 (each turn is a call)`]);
    expect(messages(schema, { maxTurns: 3 })).toEqual([]);
  });
});
