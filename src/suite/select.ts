import picomatch from 'picomatch';
import type { PlannedCase, Selection } from './plan.js';

/**
 * --filter globs match `suite/id`. A pattern also matches a trailing part of the key
 * (`refunds/*` matches `support/refunds/verify`), and a pattern with no glob characters matches a
 * whole suite or case by prefix (`support/refunds`).
 */
export function matchesFilter(key: string, patterns: string[]): boolean {
  if (patterns.length === 0) return true;
  return patterns.some((p) => {
    if (!/[*?[\]{}!]/.test(p)) return key === p || key.startsWith(p.endsWith('/') ? p : `${p}/`);
    return picomatch(p)(key) || picomatch(`**/${p}`)(key);
  });
}

/** Cases chosen by filters and tags (every --tag must match, no --exclude-tag may). */
export function selectCases(cases: PlannedCase[], sel: Selection): PlannedCase[] {
  return cases
    .filter((c) => matchesFilter(c.key, sel.filters))
    .filter((c) => sel.tags.every((t) => c.tags.includes(t)))
    .filter((c) => !sel.excludeTags.some((t) => c.tags.includes(t)))
    .map((c) => (sel.repeat === undefined ? c : { ...c, repeat: sel.repeat }));
}
