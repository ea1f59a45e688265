/**
 * What a user module (config, eval file) default-exports, checked for its shape before any schema
 * sees it: a module that exports no object (`export default null`, `export default 42`, or only
 * named exports such as `export const x`) is said plainly, rather than as a schema issue about a
 * key named `default` or `x`. `loaded` is what `importUserModule` returns: the default export, or
 * the module's namespace when the default is null or undefined or there is none.
 */
export function defaultExportProblem(loaded: unknown, { owner, hint, arrays = false }: { owner: string; hint: string; arrays?: boolean }): string | undefined {
  const namespace = isModuleNamespace(loaded);
  const value = namespace && 'default' in loaded ? loaded.default : loaded;
  if (value === null || value === undefined) return `the ${owner}'s default export is ${String(value)}: ${hint}`;
  if (typeof value !== 'object' || (Array.isArray(value) && !arrays)) return `the ${owner}'s default export is ${Array.isArray(value) ? 'an array' : `a ${typeof value}`}, not an object: ${hint}`;
  if (namespace && !('default' in loaded)) {
    const names = Object.keys(loaded);
    return `the ${owner} has no default export${names.length ? ` (it exports ${names.join(', ')})` : ''}: ${hint}`;
  }
  return undefined;
}

/** A module namespace: Node's own, or the view `importUserModule` makes of a TypeScript module's exports. */
export function isModuleNamespace(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && Object.prototype.toString.call(value) === '[object Module]';
}

/**
 * A compiled TypeScript module's exports as Node hands back an ES module with no usable default:
 * a namespace (null prototype, tagged `Module`), so every loader reads jiti's modules and Node's alike.
 */
export function namespaceOf(exports: object): Record<string, unknown> {
  const view = Object.create(null) as Record<string, unknown>;
  for (const key of Object.keys(exports)) view[key] = (exports as Record<string, unknown>)[key];
  Object.defineProperty(view, Symbol.toStringTag, { value: 'Module' });
  return Object.freeze(view);
}
