/**
 * `agent-evals/vitest`: importing it adds `toPass()` and `toPassJudge(criteria, options?)` to
 * Vitest's `expect`. The only entry that imports vitest (an optional peer dependency).
 */
import { expect } from 'vitest';
import { evalMatchers } from './matchers.js';
import type { JudgeOptions } from './evaluate.js';

expect.extend(evalMatchers);

export { evalMatchers };

declare module 'vitest' {
  // Merges with Vitest's own declaration, whose type parameter this must repeat as it is.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any, @typescript-eslint/no-unused-vars
  interface Matchers<T = any> {
    /** `await expect(evaluate(agent)...).toPass()`: runs the eval (or takes its result) and passes when it passed. */
    toPass(): Promise<void>;
    /** `await expect(evaluate(agent).input('…')).toPassJudge('criteria', { threshold })`: adds the judge expectation, runs, passes when the eval passed. */
    toPassJudge(criteria: string, options?: JudgeOptions): Promise<void>;
  }
}
