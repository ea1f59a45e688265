// Module hooks for register.mjs: an import of `js-yaml` or `yaml` from anywhere but the counting
// wrappers themselves gets the wrapper.
const here = new URL('./', import.meta.url).href;
const WRAPPED = new Set(['js-yaml', 'yaml']);

export async function resolve(specifier, context, next) {
  if (WRAPPED.has(specifier) && !context.parentURL?.startsWith(here)) return { url: new URL(`./${specifier}.mjs`, import.meta.url).href, shortCircuit: true };
  return next(specifier, context);
}
