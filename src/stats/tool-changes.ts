import type { CaseToolsFingerprint } from '../core/results-schema.js';

/**
 * How the tools offered the model moved between two sides, in words: `tool orders_lookup changed`,
 * `tool refund added`, `tool legacy removed`, by name; `tools differed between trials` when the names
 * and first definitions agree but the hashes do not. Pure.
 */
export function toolChanges(base: CaseToolsFingerprint, head: CaseToolsFingerprint): string[] {
  const out: string[] = [];
  for (const name of Object.keys(head.tools).sort()) {
    const before = Object.hasOwn(base.tools, name) ? base.tools[name] : undefined;
    if (before === undefined) out.push(`tool ${name} added`);
    else if (before !== head.tools[name]) out.push(`tool ${name} changed`);
  }
  for (const name of Object.keys(base.tools).sort()) if (!Object.hasOwn(head.tools, name)) out.push(`tool ${name} removed`);
  return out.length ? out : ['tools differed between trials'];
}
