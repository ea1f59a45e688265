import { errorMessage } from '../core/errors.js';
/** JSON value helpers shared by the structure and trajectory assertions. */

export type ParsedJson = { ok: true; value: unknown } | { ok: false; error: string };

export function parseJson(text: string): ParsedJson {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (e) {
    return { ok: false, error: errorMessage(e) };
  }
}

export function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Structural equality of JSON-like values (key order ignored, arrays ordered). */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((x, i) => deepEqual(x, b[i]));
  }
  if (isPlainObject(a) && isPlainObject(b)) {
    const keys = Object.keys(a);
    if (keys.length !== Object.keys(b).length) return false;
    return keys.every((k) => Object.hasOwn(b, k) && deepEqual(a[k], b[k]));
  }
  return false;
}

/**
 * Subset match for tool arguments: every key of `expected` is present in `actual` and matches,
 * recursing into objects (so `{order: {id: 'A1'}}` matches extra nested keys); arrays and
 * scalars must be deep-equal.
 */
export function matchesSubset(actual: unknown, expected: Record<string, unknown>): boolean {
  if (!isPlainObject(actual)) return Object.keys(expected).length === 0;
  return Object.entries(expected).every(([k, want]) => {
    if (!Object.hasOwn(actual, k)) return false;
    const got = actual[k];
    return isPlainObject(want) ? matchesSubset(got, want) : deepEqual(got, want);
  });
}
