import type { DeterministicAssertionSpec } from '../assertions/registry.js';
import type { AssertionContext } from '../assertions/types.js';
import type { CustomResult } from '../assertions/custom.js';

/** The spec of one assertion type, as its registry schema gives it. */
export type SpecOf<N extends S['type'], S extends { type: string } = DeterministicAssertionSpec> = Extract<S, { type: N }>;

/**
 * What the `check()` API must provide for a registry: one `t.<type>(...)` builder per assertion type,
 * returning exactly that type's spec. A registry entry without its builder is a missing key; a builder
 * whose spec differs from the schema's (a misspelt or mistyped field) does not fit its slot.
 */
export type SpecBuilders<S extends { type: string } = DeterministicAssertionSpec> = { [N in S['type']]: (...args: never[]) => SpecOf<N, S> };

type Spec<N extends DeterministicAssertionSpec['type']> = SpecOf<N>;

export interface CaseOption {
  caseSensitive?: boolean;
}

export interface CallOptions {
  args?: Record<string, unknown>;
  times?: number;
  atLeast?: number;
  atMost?: number;
}

/**
 * The `t` method of every deterministic assertion in the registry, named as its type. Each builder
 * declares its return type, so a literal with a field the schema lacks is an error here too.
 */
export const specBuilders = {
  equals: (value: string): Spec<'equals'> => ({ type: 'equals', value }),
  contains: (value: string, opts?: CaseOption): Spec<'contains'> => ({ type: 'contains', value, ...opts }),
  notContains: (value: string, opts?: CaseOption): Spec<'notContains'> => ({ type: 'notContains', value, ...opts }),
  containsAll: (values: string[], opts?: CaseOption): Spec<'containsAll'> => ({ type: 'containsAll', values, ...opts }),
  containsAny: (values: string[], opts?: CaseOption): Spec<'containsAny'> => ({ type: 'containsAny', values, ...opts }),
  startsWith: (value: string): Spec<'startsWith'> => ({ type: 'startsWith', value }),
  endsWith: (value: string): Spec<'endsWith'> => ({ type: 'endsWith', value }),
  regex: (pattern: string, flags?: string): Spec<'regex'> => ({ type: 'regex', pattern, ...(flags ? { flags } : {}) }),
  lengthBetween: (min: number | undefined, max?: number): Spec<'lengthBetween'> => ({
    type: 'lengthBetween',
    ...(min !== undefined ? { min } : {}),
    ...(max !== undefined ? { max } : {}),
  }),
  isJson: (): Spec<'isJson'> => ({ type: 'isJson' }),
  jsonPath: (path: string, equals?: unknown): Spec<'jsonPath'> => ({ type: 'jsonPath', path, ...(equals !== undefined ? { equals } : {}) }),
  jsonSchema: (schema: Record<string, unknown>): Spec<'jsonSchema'> => ({ type: 'jsonSchema', schema }),
  similarity: (value: string, threshold?: number): Spec<'similarity'> => ({ type: 'similarity', value, ...(threshold !== undefined ? { threshold } : {}) }),
  calledTool: (tool: string, opts?: CallOptions): Spec<'calledTool'> => ({ type: 'calledTool', tool, ...opts }),
  notCalledTool: (tool: string, args?: Record<string, unknown>): Spec<'notCalledTool'> => ({ type: 'notCalledTool', tool, ...(args ? { args } : {}) }),
  toolOrder: (tools: string[]): Spec<'toolOrder'> => ({ type: 'toolOrder', tools }),
  toolSequence: (tools: string[]): Spec<'toolSequence'> => ({ type: 'toolSequence', tools }),
  onlyTools: (tools: string[]): Spec<'onlyTools'> => ({ type: 'onlyTools', tools }),
  noLeak: (values: string[], opts?: CaseOption): Spec<'noLeak'> => ({ type: 'noLeak', values, ...opts }),
  usedNoTools: (): Spec<'usedNoTools'> => ({ type: 'usedNoTools' }),
  maxToolCalls: (max: number): Spec<'maxToolCalls'> => ({ type: 'maxToolCalls', max }),
  noToolErrors: (): Spec<'noToolErrors'> => ({ type: 'noToolErrors' }),
  maxSteps: (max: number): Spec<'maxSteps'> => ({ type: 'maxSteps', max }),
  maxTokens: (max: number): Spec<'maxTokens'> => ({ type: 'maxTokens', max }),
  maxLatencyMs: (max: number): Spec<'maxLatencyMs'> => ({ type: 'maxLatencyMs', max }),
  maxCostUsd: (max: number): Spec<'maxCostUsd'> => ({ type: 'maxCostUsd', max }),
} satisfies SpecBuilders;

/** `t.<type>(...)` for each builder: same arguments, returning the chainable handle `H`. */
export type AssertionMethods<H, B extends Record<string, (...args: never[]) => unknown> = typeof specBuilders> = { [N in keyof B]: (...args: Parameters<B[N]>) => H };

/**
 * The methods for `t`: each builds its spec and hands it to `record`, whose answer (the chainable
 * handle) it returns. The table is built by name, hence the one widening at the end.
 */
export function assertionMethods<H>(record: (spec: DeterministicAssertionSpec) => H): AssertionMethods<H> {
  const methods: Record<string, unknown> = {};
  for (const [name, build] of Object.entries(specBuilders)) {
    methods[name] = (...args: never[]) => record((build as (...a: never[]) => DeterministicAssertionSpec)(...args));
  }
  return methods as AssertionMethods<H>;
}

/** A `t.expect` predicate: `true`/`false`, or `{ pass, score?, reason? }`, maybe async. */
export type ExpectFn = (ctx: AssertionContext) => CustomResult | Promise<CustomResult>;
