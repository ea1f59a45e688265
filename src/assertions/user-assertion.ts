import { z } from 'zod';
import { assertionObject } from './define.js';
import { contextView, runPredicate, type PredicateBound } from './custom.js';
import { frozenCopy } from '../core/read-only.js';
import { compileJsonSchema } from './json-schema-validator.js';
import { describeSchemaIssue } from './json-schema-issues.js';
import type { AssertionContext, CheckOutcome } from './types.js';

/**
 * A user's assertion, default-exported by a module the config lists in `assertions`. Versioned:
 * `apiVersion` says which shape of this interface the module was written for (only 1 exists), so
 * a later change can keep loading old modules or refuse them by name. See docs/guide/custom-assertions.md.
 */
export const USER_ASSERTION_API_VERSION = 1;

/** What `evaluate` answers: a boolean, or pass with an optional score in [0, 1] and a message. */
export type UserAssertionResult = boolean | { pass: boolean; score?: number; message?: string };

export interface UserAssertion<Options = Record<string, unknown>> {
  apiVersion: typeof USER_ASSERTION_API_VERSION;
  /** The `type` eval files use; it may not be a built-in assertion's. */
  name: string;
  /** One line for `list` and the docs. */
  description?: string;
  /**
   * The options it takes (every field of the YAML entry but `type` and the common ones: severity,
   * weight, threshold, label): a JSON Schema, or a function returning the problems (none: valid).
   * Checked when the eval file loads.
   */
  schema?: Record<string, unknown> | ((options: unknown) => string | string[] | undefined | void);
  evaluate(reply: string, options: Options, ctx: AssertionContext): UserAssertionResult | Promise<UserAssertionResult>;
}

/** Names as YAML types are spelt: a letter, then letters, digits, `_` or `-`. */
const NAME = /^[A-Za-z][\w-]*$/;

/**
 * The descriptor a module default-exports (`exported`: its default export, or its namespace when it
 * has none), or the problem with it in one sentence, for a load error naming the module. Only the
 * shape is checked here; the name's clashes are the loader's.
 */
export function userAssertionOf(exported: unknown): UserAssertion | string {
  const d = exported;
  const isNamespace = typeof d === 'object' && d !== null && (d as { [Symbol.toStringTag]?: unknown })[Symbol.toStringTag] === 'Module';
  if (typeof d !== 'object' || d === null || isNamespace) return 'has no default export (export default { apiVersion: 1, name, evaluate })';
  const o = d as Record<string, unknown>;
  if (o.apiVersion !== USER_ASSERTION_API_VERSION) return `apiVersion is ${JSON.stringify(o.apiVersion)}; this version of agent-evals reads apiVersion ${USER_ASSERTION_API_VERSION}`;
  if (typeof o.name !== 'string' || !NAME.test(o.name)) return `name ${JSON.stringify(o.name)} is not a valid type name (a letter, then letters, digits, "_" or "-")`;
  if (typeof o.evaluate !== 'function') return `${o.name}: evaluate is not a function`;
  if (o.schema !== undefined && typeof o.schema !== 'function' && (typeof o.schema !== 'object' || o.schema === null)) return `${o.name}: schema must be a JSON Schema object or a validate function`;
  if (typeof o.schema === 'object' && o.schema !== null) {
    const compiled = compileJsonSchema(o.schema as Record<string, unknown>);
    if (!compiled.ok) return `${o.name}: its options schema ${compiled.error}`;
  }
  if (o.description !== undefined && typeof o.description !== 'string') return `${o.name}: description must be a string`;
  return d as UserAssertion;
}

/** The problems with one entry's options (empty: valid). A throwing validate function is one problem. */
export function userOptionsProblems(assertion: UserAssertion, options: Record<string, unknown>): string[] {
  const { schema } = assertion;
  if (schema === undefined) return [];
  if (typeof schema === 'function') {
    try {
      const found = schema(options);
      return found === undefined ? [] : typeof found === 'string' ? [found] : found.filter((p) => typeof p === 'string');
    } catch (e) {
      return [`its validate function threw: ${e instanceof Error ? e.message : String(e)}`];
    }
  }
  const compiled = compileJsonSchema(schema);
  if (!compiled.ok) return [`its options schema ${compiled.error}`];
  return compiled.validate(options).map((issue) => describeSchemaIssue(issue, options));
}

/** Runs it on one reply. Never throws: a throw or a malformed answer fails this assertion with the message. */
export function runUserAssertion(assertion: UserAssertion, options: Record<string, unknown>, ctx: AssertionContext, bound?: PredicateBound): Promise<CheckOutcome> {
  // Its options are the case's, shared by every trial: a frozen copy too.
  return runPredicate(assertion.name, () => assertion.evaluate(ctx.reply, frozenCopy(options), contextView(ctx)), bound);
}

/**
 * How a user assertion stands in a case once loaded: its name and options. A YAML entry
 * `- type: wordCount` with `max: 50` becomes `{ type: 'userAssertion', name: 'wordCount', options: { max: 50 } }`
 * (the loader rewrites it); `t.assertion('wordCount', { max: 50 })` records the same.
 */
export const userAssertionSpecSchema = assertionObject('userAssertion', {
  name: z.string().min(1),
  options: z.record(z.string(), z.unknown()).optional(),
});
export type UserAssertionSpec = z.infer<typeof userAssertionSpecSchema>;

/**
 * The user assertions of one run, by name: loaded with its config (its `assertions`), carried by its
 * plan (eval files resolve their `- type: <name>` entries against them) and its settings (trials are
 * checked with them). Never process-wide: two runs in one process each have their own.
 */
export type UserAssertions = ReadonlyMap<string, UserAssertion>;

/** A run whose config lists no `assertions`. */
export const NO_USER_ASSERTIONS: UserAssertions = new Map();

export function userAssertionsByName(list: readonly UserAssertion[]): UserAssertions {
  return new Map(list.map((a) => [a.name, a]));
}

/** Runs a recorded user assertion; one the run's config did not load (a typo in `t.assertion`) fails naming it. */
export function evaluateUserAssertion(spec: UserAssertionSpec, ctx: AssertionContext, loaded: UserAssertions, bound?: PredicateBound): Promise<CheckOutcome> {
  const assertion = loaded.get(spec.name);
  if (!assertion) {
    const known = [...loaded.keys()];
    return Promise.resolve({ score: 0, message: `no user assertion named "${spec.name}" is loaded (${known.length ? `loaded: ${known.join(', ')}` : "the config's `assertions` lists none"})` });
  }
  const options = spec.options ?? {};
  const problems = userOptionsProblems(assertion, options);
  if (problems.length > 0) return Promise.resolve({ score: 0, message: `${spec.name}: invalid options: ${problems.join('; ')}` });
  return runUserAssertion(assertion, options, ctx, bound);
}
