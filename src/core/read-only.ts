/**
 * Read-only views for user code (reporters, custom assertions): a write to one throws in strict
 * mode (every ES module), so an extension cannot change what the runner or another extension
 * reads. The walks keep their own stack, not the call stack: a deeply nested tool argument cannot
 * overflow it. They read own enumerable properties (the results are plain data); a binary view (a
 * Buffer, a typed array) cannot be frozen and is left as it is.
 */

/** Roots already frozen whole: the same trial reaches every reporter, and then inside its case. */
const frozenWhole = new WeakSet<object>();

/**
 * Freezes `value` and everything it reaches, in place; returns it. An object already frozen below
 * the root is taken as frozen whole (a trial inside its case, a case's view): walked once.
 */
export function deepFreeze<T>(value: T): T {
  if (!isFreezable(value) || frozenWhole.has(value)) return value;
  const stack: object[] = [value];
  while (stack.length > 0) {
    const o = stack.pop()! as Record<string, unknown>;
    Object.freeze(o);
    for (const key of Object.keys(o)) {
      const v = o[key];
      if (isFreezable(v) && !Object.isFrozen(v)) stack.push(v);
    }
  }
  frozenWhole.add(value);
  return value;
}

/**
 * A deep copy of plain data (objects and arrays), frozen: the original stays the runner's to use.
 * Anything else (a function, a class instance, a binary view) is shared as it is.
 */
export function frozenCopy<T>(value: T): T {
  if (!isPlain(value)) return value;
  const copies = new Map<object, Record<string, unknown>>();
  const stack: object[] = [];
  const copyOf = (o: object): object => {
    const known = copies.get(o);
    if (known) return known;
    const c = (Array.isArray(o) ? new Array<unknown>(o.length) : Object.create(Object.getPrototypeOf(o) as object | null)) as Record<string, unknown>;
    copies.set(o, c);
    stack.push(o);
    return c;
  };
  const root = copyOf(value);
  while (stack.length > 0) {
    const o = stack.pop()! as Record<string, unknown>;
    const c = copies.get(o)!;
    for (const key of Object.keys(o)) {
      const v = o[key];
      c[key] = isPlain(v) ? copyOf(v) : v;
    }
  }
  for (const c of copies.values()) Object.freeze(c);
  return root as T;
}

function isFreezable(v: unknown): v is object {
  return typeof v === 'object' && v !== null && !ArrayBuffer.isView(v);
}

function isPlain(v: unknown): v is object {
  if (typeof v !== 'object' || v === null) return false;
  if (Array.isArray(v)) return true;
  const proto: unknown = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}
