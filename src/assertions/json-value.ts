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
 * Why a value cannot stand for JSON tool arguments (undefined: it can): a `__proto__` key, or an
 * object that is not a plain object or an array (a literal `{__proto__: {...}}` is one: its keys sit
 * on the prototype, where a match would not look). Names where, e.g. `order.__proto__`.
 */
export function argsProblem(value: unknown, path = '', seen = new Set<object>()): string | undefined {
  if (typeof value !== 'object' || value === null || seen.has(value)) return undefined;
  seen.add(value);
  const at = path === '' ? '' : ` at ${path}`;
  if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) {
      const problem = argsProblem(item, `${path}[${i}]`, seen);
      if (problem) return problem;
    }
    return undefined;
  }
  const proto = Object.getPrototypeOf(value) as unknown;
  if (proto !== Object.prototype && proto !== null) return `args are matched as JSON, and the object${at} is not a plain one (a literal __proto__ key sets its prototype)`;
  for (const key of Object.keys(value)) {
    const inner = path === '' ? key : `${path}.${key}`;
    if (key === '__proto__') return `"__proto__" cannot be an argument name (at ${inner}): it would be dropped, and the filter would match any call`;
    const problem = argsProblem((value as Record<string, unknown>)[key], inner, seen);
    if (problem) return problem;
  }
  return undefined;
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
