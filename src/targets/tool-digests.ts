import { stableHash } from '../core/stable-hash.js';
import { providerToolOf, type Tool } from './tool.js';

/**
 * A digest of one tool as the model is offered it: its name, description and input schema as the
 * provider is sent them, and its output schema when it declares one. Key order inside a schema does
 * not count (stableHash sorts keys); any edit of a word does.
 */
export function toolDigest(t: Tool): string {
  return stableHash({ ...providerToolOf(t), ...(t.outputSchema ? { outputSchema: t.outputSchema } : {}) });
}

/** Every trial of a target offers the same tools: their digests are worked out once per tool list. */
const known = new WeakMap<readonly Tool[], Readonly<Record<string, string>>>();

/** The tools offered, by name → digest (what a trial records as its `toolDigests`). */
export function toolDigests(tools: readonly Tool[]): Readonly<Record<string, string>> {
  let digests = known.get(tools);
  if (digests === undefined) known.set(tools, (digests = Object.freeze(Object.fromEntries(tools.map((t) => [t.name, toolDigest(t)])))));
  return digests;
}
