import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { CaseInputSchema } from '../../src/core/content-parts.js';
import { AssertionSpecSchema } from '../../src/suite/schema.js';
import { describeIssue } from '../../src/suite/zod-issues.js';

function described(schema: z.ZodType, input: unknown, known: readonly string[] = ['contains', 'regex']) {
  const r = schema.safeParse(input);
  if (r.success) throw new Error('expected a failure');
  return r.error.issues.map((i) => describeIssue(i, input, known));
}

describe('describeIssue names each discriminated union for what it holds', () => {
  it('an unknown part type in an input is a part type, at the part, listing the part types', () => {
    expect(
      described(CaseInputSchema, [
        { type: 'text', text: 'hi' },
        { type: 'imag', path: 'a.png' },
      ]),
    ).toEqual([{ path: [1, 'type'], message: 'unknown part type "imag": did you mean "image"? (known: text, image, file)' }]);
  });

  it('a part without a type', () => {
    expect(described(CaseInputSchema, [{ path: 'a.png' }])).toEqual([{ path: [0, 'type'], message: 'a part needs a "type"' }]);
  });

  it("a known part's own problem is named, not the input as a whole", () => {
    expect(described(CaseInputSchema, [{ type: 'image' }])).toEqual([{ path: [0, 'path'], message: 'an image part needs exactly one of "path" or "url"' }]);
  });

  it('an unknown assertion type is still an assertion type, listing the known ones given', () => {
    expect(described(AssertionSpecSchema, { type: 'contans', value: 'x' })).toEqual([
      { path: ['type'], message: 'unknown assertion type "contans": did you mean "contains"? (known: contains, regex)' },
    ]);
    expect(described(AssertionSpecSchema, { value: 'x' })).toEqual([{ path: ['type'], message: 'an assertion needs a "type"' }]);
  });

  it('a value of none of the union\'s shapes says which shapes it takes and what it got, not zod\'s bare "Invalid input"', () => {
    expect(described(CaseInputSchema, 42)).toEqual([{ path: [], message: 'expected string or array, received number' }]);
    // An mcp case's call written as a YAML mapping rather than the JSON string.
    expect(described(CaseInputSchema, { tool: 'get-sum' })).toEqual([{ path: [], message: 'expected string or array, received object' }]);
  });

  it("a value of one branch's type that the branch refuses gets that branch's own message (2.5 where a whole number or an object is taken)", () => {
    const repeat = z.union([z.number().int({ error: 'expected a whole number from 1 to 10' }), z.object({ n: z.number() })]);
    expect(described(repeat, 2.5)).toEqual([{ path: [], message: 'expected a whole number from 1 to 10' }]);
    expect(described(repeat, 'x')).toEqual([{ path: [], message: 'expected number or object, received string' }]);
  });
});
