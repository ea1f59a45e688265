import type { z } from 'zod';

/** `cases[0].assert[1].type` from a zod issue path. */
export function formatPath(path: PropertyKey[]): string {
  let out = '';
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`;
    else out += out ? `.${String(part)}` : String(part);
  }
  return out;
}

/**
 * One readable message per issue. A discriminated union with an unknown `type` gets a message that
 * names the type and the known ones, rather than zod's generic wording.
 */
export function describeIssue(issue: z.core.$ZodIssue, input: unknown, knownTypes: readonly string[]): { path: PropertyKey[]; message: string } {
  if (issue.code === 'invalid_union' && (issue as { note?: string }).note === 'No matching discriminator') {
    // zod points the issue at the discriminator itself: `…assert[1].type`.
    const type = valueAt(input, issue.path);
    const message = type === undefined ? 'an assertion needs a "type"' : `unknown assertion type ${JSON.stringify(type)} (known: ${knownTypes.join(', ')})`;
    return { path: issue.path, message };
  }
  if (issue.code === 'unrecognized_keys' && issue.path.at(-1) === 'matrix') {
    return { path: [...issue.path, issue.keys[0] ?? ''], message: `unknown matrix dimension ${JSON.stringify(issue.keys[0])} (only "target" is supported)` };
  }
  if (issue.code === 'unrecognized_keys') {
    return { path: [...issue.path, issue.keys[0] ?? ''], message: `unknown field${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((k) => JSON.stringify(k)).join(', ')}` };
  }
  return { path: issue.path, message: issue.message };
}

export function valueAt(input: unknown, path: PropertyKey[]): unknown {
  let cur: unknown = input;
  for (const key of path) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<PropertyKey, unknown>)[key];
  }
  return cur;
}
