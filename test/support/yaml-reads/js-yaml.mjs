// js-yaml as it is, with each `load` counted (register.mjs).
import * as real from 'js-yaml';
export * from 'js-yaml';
export default real.default;
export function load(...args) {
  globalThis.__yamlReads.jsYaml += 1;
  return real.load(...args);
}
