import type { AssertionResult } from '../core/results-schema.js';
import type { Usage } from '../core/usage.js';

/** An assertion's result and what grading it spent. */
export interface Graded {
  result: AssertionResult;
  usage: Usage;
}
