/**
 * A zod schema built on first use rather than when its module loads: start-up pays only for the
 * schemas a command uses (a warm `list` of YAML files, whose parsed form is cached, uses none of
 * the eval-file schemas). The value stands for the schema in every way a caller uses one (methods,
 * `_zod`, `instanceof`), and its type is the schema's own, so `z.infer<typeof X>` is unchanged.
 * Builders that compose schemas should call each other's `build` (see `lazySchema`'s second form)
 * so that zod's trees hold the schemas themselves.
 */
export function lazySchema<T extends object>(build: () => T): T {
  let built: T | undefined;
  const real = (): T => (built ??= build());
  const bound = new Map<PropertyKey, unknown>();
  return new Proxy({} as T, {
    get(_, key) {
      const target = real();
      const value = Reflect.get(target, key, target) as unknown;
      if (typeof value !== 'function') return value;
      // Methods run on the schema itself, whoever calls them; one bound copy per method.
      if (!bound.has(key)) bound.set(key, (value as (...args: unknown[]) => unknown).bind(target));
      return bound.get(key);
    },
    has: (_, key) => Reflect.has(real(), key),
    getPrototypeOf: () => Reflect.getPrototypeOf(real()),
  });
}

/** `build`, run once: the result is kept (for builders that compose each other's schemas). */
export function once<T>(build: () => T): () => T {
  let built: T | undefined;
  let done = false;
  return () => {
    if (!done) {
      built = build();
      done = true;
    }
    return built as T;
  };
}
