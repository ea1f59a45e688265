import { deterministicAssertionTypes } from '../assertions/registry.js';
import { judgeAssertionTypes } from '../judges/spec.js';
import { SIMILAR_TO } from '../assertions/similar-to.js';

/** Every assertion type a YAML file may name, for error messages and `list`. */
export const allAssertionTypes: readonly string[] = [...deterministicAssertionTypes, ...judgeAssertionTypes, SIMILAR_TO];
