/**
 * What an adapter was handed, when it is not the framework result it reads. Function targets load
 * without a type check, so a forgotten `await` or the wrong field reaches the adapter at run time:
 * it refuses by name (what it got, what to pass) rather than fail on a missing field, or — worse —
 * read an empty run that `notCalledTool` and `usedNoTools` would pass.
 */

export function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (typeof value === 'object' || typeof value === 'function') && value !== null && typeof (value as { then?: unknown }).then === 'function';
}

/** A short description of a value: its kind, and an object's first keys. */
export function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return `an array of ${value.length}`;
  if (isThenable(value)) return 'a Promise';
  if (typeof value === 'string') return `a string (${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)})`;
  if (typeof value !== 'object') return typeof value === 'undefined' ? 'undefined' : `a ${typeof value}`;
  const keys = Object.keys(value);
  const name = value.constructor?.name && value.constructor.name !== 'Object' ? `a ${value.constructor.name}` : 'an object';
  return keys.length ? `${name} with ${keys.slice(0, 6).join(', ')}${keys.length > 6 ? ', …' : ''}` : name;
}

/** The adapter's refusal: `fromX: expected …, got …` and, for a Promise, the `await` it lacks. */
export function wrongInput(adapter: string, expected: string, value: unknown, awaitHint: string): TypeError {
  const fix = isThenable(value) ? `: ${awaitHint}` : '';
  return new TypeError(`${adapter}: expected ${expected}, got ${describeValue(value)}${fix}`);
}

/** Whether a field holds a list (a check, not a narrowing: the field keeps its declared type). */
export function isList(value: unknown): boolean {
  return Array.isArray(value);
}
