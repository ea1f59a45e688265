import { describe, expect, expectTypeOf, it } from 'vitest';
import { criterionFromSpec } from '../../src/judges/criterion-from-spec.js';
import { isJudgeType, JUDGED_ASSERTIONS, judgeAssertionSchemas, judgeAssertionTypes, lacksReference, type JudgeAssertionSpec } from '../../src/judges/spec.js';
import { AssertionSpecSchema } from '../../src/suite/schema.js';

/** One minimal spec per judged type, with no reference anywhere. */
const minimal: Record<string, Record<string, unknown>> = {
  judge: { criteria: 'polite' },
  judgeAgainst: { criteria: 'same facts' },
  factuality: {},
  summarizes: { source: 'text' },
  closedQa: { question: 'is it polite?' },
  sql: {},
  pairwise: {},
  faithfulness: { context: { tool: 'search' } },
  contextRelevance: { context: ['a passage'] },
  answerRelevance: {},
};

describe('judged assertion registry', () => {
  it('derives the type names, the schema tuple and the spec union from its descriptors', () => {
    expect(judgeAssertionTypes).toEqual(JUDGED_ASSERTIONS.map((d) => d.schema.shape.type.value));
    expect([...judgeAssertionTypes].sort()).toEqual(Object.keys(minimal).sort());
    expect(judgeAssertionSchemas).toEqual(JUDGED_ASSERTIONS.map((d) => d.schema));
    expectTypeOf<JudgeAssertionSpec['type']>().toEqualTypeOf<(typeof JUDGED_ASSERTIONS)[number]['schema']['shape']['type']['value']>();
    for (const type of judgeAssertionTypes) {
      expect(isJudgeType(type)).toBe(true);
      // The eval file's assertion union takes each of them.
      expect(AssertionSpecSchema.safeParse({ type, ...minimal[type] }).success, type).toBe(true);
    }
  });

  it('gives every judged type a docs summary', () => {
    for (const d of JUDGED_ASSERTIONS) expect(d.summary.length, d.schema.shape.type.value).toBeGreaterThan(20);
  });

  it('says which types need a reference from the descriptors, as criterionFromSpec finds at run time', () => {
    for (const d of JUDGED_ASSERTIONS) {
      const type = d.schema.shape.type.value;
      const spec = { type, ...minimal[type] } as JudgeAssertionSpec;
      const lacks = lacksReference(spec, undefined);
      expect(lacks, type).toBe(d.reference === 'required' || d.reference === 'comparedTo');
      // The criterion each type asks: without a reference, exactly those that need one cannot be built.
      const built = (() => {
        try {
          criterionFromSpec(spec, undefined);
          return true;
        } catch {
          return false;
        }
      })();
      expect(built, type).toBe(!lacks);
      expect(lacksReference(spec, 'the case reference')).toBe(false);
    }
  });
});
