import { errorMessage } from '../core/errors.js';
import { runCustom, customDefaultSeverity, type CustomAssertionSpec, type PredicateBound } from './custom.js';
import { deterministicAssertionRegistry, type DeterministicAssertionSpec } from './registry.js';
import type { AssertionContext, CheckOutcome } from './types.js';
import { evaluateUserAssertion, NO_USER_ASSERTIONS, type UserAssertions, type UserAssertionSpec } from './user-assertion.js';
import type { Severity } from '../core/results-schema.js';

/** A spec the deterministic phase can run: any built-in type, a TypeScript `custom`, or a user assertion. */
export type DeterministicSpec = DeterministicAssertionSpec | CustomAssertionSpec | UserAssertionSpec;

/**
 * Runs one deterministic assertion. Never throws: a bug in a check (or an unknown type) becomes
 * a score-0 outcome with a message, so one bad assertion cannot take down the trial. User code
 * (`custom`, a user assertion) runs under `bound` when given: one that never settles fails.
 */
export async function evaluateDeterministic(spec: DeterministicSpec, ctx: AssertionContext, userAssertions: UserAssertions = NO_USER_ASSERTIONS, bound?: PredicateBound): Promise<CheckOutcome> {
  if (spec.type === 'custom') return runCustom(spec, ctx, bound);
  if (spec.type === 'userAssertion') return evaluateUserAssertion(spec, ctx, userAssertions, bound);
  const definition = deterministicAssertionRegistry.get(spec.type);
  if (!definition) return { score: 0, message: `unknown assertion type "${String(spec.type)}"` };
  const started = performance.now();
  let outcome: CheckOutcome;
  try {
    outcome = definition.check(spec, ctx);
  } catch (e) {
    outcome = { score: 0, message: `${spec.type} threw: ${errorMessage(e)}` };
  }
  // After a long synchronous check (a pattern spending its time budget), give the event loop a
  // turn: trials that settle without I/O would otherwise chain on microtasks and Ctrl-C would
  // wait for the whole run.
  if (performance.now() - started > LONG_CHECK_MS) await new Promise((resolve) => setImmediate(resolve));
  return outcome;
}

const LONG_CHECK_MS = 20;

/**
 * Default severity of a deterministic type (gate; similarity soft). An unknown type
 * falls back to gate, the deterministic default; judge severities depend on the judge config
 * and are decided elsewhere.
 */
export function defaultSeverityOf(type: string): Severity {
  if (type === 'custom') return customDefaultSeverity;
  return deterministicAssertionRegistry.get(type)?.defaultSeverity ?? 'gate';
}
