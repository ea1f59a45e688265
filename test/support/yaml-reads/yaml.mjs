// `yaml` as it is, with each `parseDocument` counted (register.mjs).
import * as real from 'yaml';
export * from 'yaml';
export default real.default;
export function parseDocument(...args) {
  globalThis.__yamlReads.yamlDocument += 1;
  return real.parseDocument(...args);
}
