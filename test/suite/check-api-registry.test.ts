/**
 * The `t` methods are typed from the assertion registry. The `@ts-expect-error` lines below are the
 * proof, checked by `tsc -p tsconfig.test.json`: if one of them stopped being an error, the
 * type-check would fail with "Unused '@ts-expect-error' directive".
 */
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { z } from 'zod';
import { assertionObject, defineAssertion } from '../../src/assertions/define.js';
import { deterministicAssertionSchemas, deterministicAssertionTypes, type DeterministicAssertionSpec, type DeterministicAssertionType } from '../../src/assertions/registry.js';
import { specBuilders, type SpecBuilders, type SpecOf } from '../../src/suite/assertion-methods.js';
import { createCheckApi, type CheckApi } from '../../src/suite/check-api.js';

/** A throwaway assertion, as a new registry entry would be defined. */
const fakeCheck = defineAssertion(assertionObject('fakeCheck', {}), () => ({ score: 1, message: 'fakeCheck: ok' }));
/** The registry's spec union with that entry added, as the registry would derive it. */
type Extended = DeterministicAssertionSpec | z.output<typeof fakeCheck.schema>;

describe('t methods typed from the assertion registry', () => {
  it('a registry entry without its t method fails the type-check', () => {
    // @ts-expect-error Property 'fakeCheck' is missing: the registry has it, the t builders do not.
    const withoutMethod: SpecBuilders<Extended> = specBuilders;
    // With its method, the same extended registry type-checks.
    const withMethod = { ...specBuilders, fakeCheck: (): SpecOf<'fakeCheck', Extended> => ({ type: 'fakeCheck' }) } satisfies SpecBuilders<Extended>;
    expect(withMethod.fakeCheck()).toEqual({ type: 'fakeCheck' });
    expect(fakeCheck.schema.safeParse(withMethod.fakeCheck()).success).toBe(true);
    expect(withoutMethod).toBe(specBuilders);
  });

  it('a t method whose spec differs from the registry schema fails the type-check', () => {
    const misspelt = {
      ...specBuilders,
      // @ts-expect-error `valeu` is not a field of `equals` (and `value` is missing).
      equals: (value: string): SpecOf<'equals'> => ({ type: 'equals', valeu: value }),
    };
    const mistyped = {
      ...specBuilders,
      maxSteps: (max: string) => ({ type: 'maxSteps' as const, max }),
    };
    // @ts-expect-error `max` is a number in the maxSteps schema, not a string.
    const check: SpecBuilders = mistyped;
    expect(misspelt.equals('a')).toEqual({ type: 'equals', valeu: 'a' });
    expect(check).toBe(mistyped);
  });

  it('CheckApi has one method per registry type, and the runtime table matches the registry', () => {
    expectTypeOf<Extract<keyof CheckApi, DeterministicAssertionType>>().toEqualTypeOf<DeterministicAssertionType>();
    expectTypeOf<Parameters<CheckApi['contains']>>().toEqualTypeOf<Parameters<(typeof specBuilders)['contains']>>();
    expect(Object.keys(specBuilders).sort()).toEqual([...deterministicAssertionTypes].sort());
  });

  it('every t method records a spec its registry schema accepts', () => {
    const { t, recorded } = createCheckApi({ input: 'q', run: { reply: '{"a":1}' } });
    t.equals('x');
    t.contains('x', { caseSensitive: false }).soft();
    t.containsAll(['x']);
    t.containsAny(['x']);
    t.notContains('x');
    t.startsWith('x');
    t.endsWith('x');
    t.regex('x', 'i');
    t.lengthBetween(1, 5);
    t.isJson();
    t.jsonPath('$.a', 1);
    t.jsonSchema({ type: 'object' });
    t.similarity('x', 0.5);
    t.calledTool('search', { times: 1 });
    t.notCalledTool('search', { q: 'x' });
    t.toolOrder(['a']);
    t.toolSequence(['a']);
    t.usedNoTools();
    t.maxToolCalls(2);
    t.noToolErrors();
    t.onlyTools(['a']);
    t.noLeak(['secret'], { caseSensitive: true });
    t.maxSteps(2);
    t.maxTokens(2);
    t.maxLatencyMs(2);
    t.maxCostUsd(2).label('cheap');
    expect(recorded.map((r) => r.spec.type).sort()).toEqual([...deterministicAssertionTypes].sort());
    for (const { spec } of recorded) {
      const schema = deterministicAssertionSchemas.find((s) => s.shape.type.value === spec.type);
      expect(schema?.safeParse(spec).success, spec.type).toBe(true);
    }
    expect(recorded.find((r) => r.spec.type === 'maxCostUsd')?.spec).toEqual({ type: 'maxCostUsd', max: 2, label: 'cheap' });
  });
});
