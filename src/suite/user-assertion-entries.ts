import { assertionCommonFields } from '../assertions/types.js';
import { userOptionsProblems, type UserAssertions } from '../assertions/user-assertion.js';

export interface EntryProblem {
  path: PropertyKey[];
  message: string;
}

const COMMON = new Set(Object.keys(assertionCommonFields));

/**
 * Rewrites, in place, each `- type: <name>` entry of a parsed eval file whose name is one of the run's
 * user assertions into `{ type: 'userAssertion', name, options }` (the common fields stay on the entry),
 * and checks its options against the assertion's schema. Returns the problems, each at its entry.
 */
export function resolveUserAssertionEntries(input: unknown, loaded: UserAssertions): EntryProblem[] {
  const problems: EntryProblem[] = [];
  const file = record(input);
  if (!file || loaded.size === 0) return problems;
  const rewrite = (entries: unknown, path: PropertyKey[]) => rewriteEntries(entries, path, loaded, problems);
  rewrite(file.assert, ['assert']);
  list(file.cases).forEach((c, k) => {
    rewrite(c.assert, ['cases', k, 'assert']);
    list(c.turns).forEach((turn, j) => rewrite(turn.assert, ['cases', k, 'turns', j, 'assert']));
  });
  return problems;
}

function rewriteEntries(entries: unknown, path: PropertyKey[], loaded: UserAssertions, problems: EntryProblem[]): void {
  if (!Array.isArray(entries)) return;
  entries.forEach((entry: unknown, i) => {
    const e = record(entry);
    const assertion = typeof e?.type === 'string' ? loaded.get(e.type) : undefined;
    if (!e || !assertion) return;
    const common: Record<string, unknown> = {};
    const options: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(e)) if (key !== 'type') (COMMON.has(key) ? common : options)[key] = value;
    for (const message of userOptionsProblems(assertion, options)) problems.push({ path: [...path, i], message: `${assertion.name}: ${message}` });
    entries[i] = { type: 'userAssertion', name: assertion.name, options, ...common };
  });
}

function record(v: unknown): Record<string, unknown> | undefined {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
}

function list(v: unknown): Record<string, unknown>[] {
  return Array.isArray(v)
    ? v.flatMap((x: unknown): Array<Record<string, unknown>> => {
        const r = record(x);
        return r ? [r] : [];
      })
    : [];
}
