import picomatch from 'picomatch';
import type { PlannedCase, Selection } from './plan.js';

/**
 * --filter globs match `suite/id`. A glob also matches a trailing part of the key
 * (`refunds/*` matches `support/refunds/verify`) and a leading one, so a pattern naming suites
 * selects their cases (`support/*` matches `support/refunds/verify`). A pattern with no glob
 * characters matches a whole suite or case by prefix (`support/refunds`).
 */
export function filterMatcher(patterns: string[]): (key: string) => boolean {
  if (patterns.length === 0) return () => true;
  // Compiled once per selection, not once per case.
  const tests = patterns.map((p): ((key: string) => boolean) => {
    if (!/[*?[\]{}!]/.test(p)) {
      const prefix = p.endsWith('/') ? p : `${p}/`;
      // `suite/id` also names each of its matrix cases (`suite/id [target=a]`).
      return (key) => key === p || key.startsWith(prefix) || key.startsWith(`${p} [`);
    }
    const matchers = [p, `**/${p}`, `${p}/**`, `**/${p}/**`].map((glob) => picomatch(glob));
    return (key) => matchers.some((m) => m(key));
  });
  return (key) => tests.some((t) => t(key));
}

/** Cases chosen by filters and tags (every --tag must match, no --exclude-tag may) and, when given, by key. */
export function selectCases(cases: PlannedCase[], sel: Selection): PlannedCase[] {
  const matches = filterMatcher(sel.filters);
  const { keys } = sel;
  return cases
    .filter((c) => matches(c.key) && (!keys || keys.has(c.key)))
    .filter((c) => sel.tags.every((t) => c.tags.includes(t)))
    .filter((c) => !sel.excludeTags.some((t) => c.tags.includes(t)));
}
