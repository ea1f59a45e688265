import type { CaseToolsFingerprint, TrialResult } from '../core/results-schema.js';
import { stableHash } from '../core/stable-hash.js';

/**
 * A case's tools part, from what its trials recorded (`trace.toolDigests`): each tool by name with the
 * digest its first trial recorded; `hash` covers every distinct name=digest pair of every trial, so a
 * definition that differed between trials still shows. Undefined when no trial recorded tools (a
 * function, command or HTTP target). Pure.
 */
export function caseToolsFingerprint(trials: readonly TrialResult[]): CaseToolsFingerprint | undefined {
  // A Map, not an object: a tool may be named `__proto__` or `constructor`.
  const tools = new Map<string, string>();
  const pairs = new Set<string>();
  let recorded = false;
  for (const t of trials) {
    const digests = t.trace.toolDigests;
    if (digests === undefined) continue;
    recorded = true;
    for (const [name, digest] of Object.entries(digests)) {
      if (!tools.has(name)) tools.set(name, digest);
      pairs.add(JSON.stringify([name, digest]));
    }
  }
  if (!recorded) return undefined;
  return { hash: stableHash([...pairs].sort()), tools: Object.fromEntries(tools) };
}
