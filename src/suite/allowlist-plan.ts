import { allowlistSpec } from '../assertions/tool-allowlist.js';
import type { TsAssertionSpec } from './schema.js';

/** A case's `onlyTools` (else its suite's) becomes its first assertion: a gate checked before any judge is asked. */
export function withAllowlist(onlyTools: readonly string[] | undefined, assertions: TsAssertionSpec[]): TsAssertionSpec[] {
  return onlyTools ? [allowlistSpec(onlyTools), ...assertions] : assertions;
}
