import type { AssertionContext } from '../../assertions/types.js';
import { isFinalAssertion } from '../../assertions/registry.js';
import { NO_USER_ASSERTIONS } from '../../assertions/user-assertion.js';
import type { PlannedCase } from '../../suite/plan.js';
import { deterministicResult } from './grade-assertions.js';

/**
 * `simulatedUser.endOnFail`: after each target turn, the case's final assertions (a failure no later
 * turn can undo: a forbidden call, a leaked value) are checked on the conversation so far, and the
 * first failure ends the conversation. Undefined when the case asks for none of it. Judges never run
 * here: the trial's assertions, judges included, are graded as usual once the conversation ended.
 */
export function endOnFailDetector(c: PlannedCase, contextSoFar: () => AssertionContext): (() => Promise<boolean>) | undefined {
  if (!c.simulatedUser?.endOnFail) return undefined;
  const finals = c.assertions.filter(isFinalAssertion);
  if (finals.length === 0) return undefined;
  return async () => {
    const ctx = contextSoFar();
    for (const spec of finals) if ((await deterministicResult(spec, ctx, NO_USER_ASSERTIONS)).status === 'failed') return true;
    return false;
  };
}
