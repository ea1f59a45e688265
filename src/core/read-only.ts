/**
 * Read-only views for user code (reporters, custom assertions): a write to one throws in strict
 * mode (every ES module), so an extension cannot change what the runner or another extension
 * reads. Both walks keep their own stack, not the call stack: a deeply nested tool argument cannot
 * overflow it. Binary views (a Buffer, a typed array) cannot be frozen and are left as they are.
 */

/** Values already frozen whole: the same trial reaches every reporter, and then its case. */
const frozenWhole = new WeakSet<object>();

/** Freezes `value` and everything its own properties reach, in place; returns it. */
export function deepFreeze<T>(value: T): T {
  if (!isWalkable(value) || frozenWhole.has(value)) return value;
  const stack: object[] = [value];
  const seen = new Set<object>();
  while (stack.length > 0) {
    const o = stack.pop()!;
    if (seen.has(o) || frozenWhole.has(o)) continue;
    seen.add(o);
    Object.freeze(o);
    for (const key of Reflect.ownKeys(o)) {
      // The descriptor's value, never a getter's result: reading runs no user code.
      const v: unknown = Object.getOwnPropertyDescriptor(o, key)?.value;
      if (isWalkable(v)) stack.push(v);
    }
  }
  for (const o of seen) frozenWhole.add(o);
  return value;
}

/**
 * A deep copy of plain data (objects and arrays), frozen: the original stays the runner's to use.
 * Anything else (a function, a class instance, a binary view) is shared as it is.
 */
export function frozenCopy<T>(value: T): T {
  if (!isPlain(value)) return value;
  const copies = new Map<object, object>();
  const copyOf = (o: object): object => {
    const known = copies.get(o);
    if (known) return known;
    const c: object = Array.isArray(o) ? new Array<unknown>(o.length) : (Object.create(Object.getPrototypeOf(o) as object | null) as object);
    copies.set(o, c);
    stack.push(o);
    return c;
  };
  const stack: object[] = [];
  const root = copyOf(value);
  while (stack.length > 0) {
    const o = stack.pop()!;
    const c = copies.get(o)! as Record<PropertyKey, unknown>;
    for (const key of Reflect.ownKeys(o)) {
      const d = Object.getOwnPropertyDescriptor(o, key)!;
      if ('value' in d && isPlain(d.value)) d.value = copyOf(d.value);
      Object.defineProperty(c, key, d);
    }
  }
  for (const c of copies.values()) Object.freeze(c);
  return root as T;
}

function isWalkable(v: unknown): v is object {
  return typeof v === 'object' && v !== null && !ArrayBuffer.isView(v) && !(v instanceof ArrayBuffer);
}

function isPlain(v: unknown): v is object {
  if (typeof v !== 'object' || v === null) return false;
  if (Array.isArray(v)) return true;
  const proto: unknown = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}
