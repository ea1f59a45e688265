import { assertionName } from '../assertions/assertion-name.js';
import { EvalBuilder, type JudgeOptions } from './evaluate.js';
import type { EvalResult } from './eval-result.js';

/** What the matchers take: a builder (run by the matcher) or a finished result (or the promise of one). */
export type EvalUnderTest = EvalBuilder | EvalResult | Promise<EvalResult>;

interface MatcherContext {
  isNot: boolean;
}
interface MatcherOutcome {
  pass: boolean;
  message(): string;
}

/**
 * Test-framework matchers over `evaluate()`, for any `expect.extend` (Vitest's, Jest's): the
 * verdict is the run's own (`result.passed`), never decided again here.
 */
export const evalMatchers = {
  /** The eval passes: a builder is run first. */
  async toPass(this: MatcherContext, received: EvalUnderTest): Promise<MatcherOutcome> {
    const result = await resultOf(received, 'toPass');
    return outcome(this, result);
  },

  /**
   * A builder: the judge expectation is added (`expectJudge(criteria, options)`) and the eval run.
   * A finished result: it must hold that judge assertion (by its name, `judge "criteria"`) and have passed.
   */
  async toPassJudge(this: MatcherContext, received: EvalUnderTest, criteria: string, options?: JudgeOptions): Promise<MatcherOutcome> {
    const built = received instanceof EvalBuilder;
    const result = await resultOf(built ? received.expectJudge(criteria, options) : received, 'toPassJudge');
    const name = assertionName({ type: 'judge', criteria, ...(options?.label !== undefined ? { label: options.label } : {}) });
    const names = new Set(result.trials.flatMap((t) => t.assertions.filter((a) => a.kind === 'judge').map((a) => a.name)));
    if (!built && !names.has(name)) {
      return {
        pass: false,
        message: () =>
          `expected the eval to pass the judge ${name}, but it has no such assertion (${names.size ? `judged: ${[...names].join(', ')}` : 'no judge assertion'}); give toPassJudge the builder to add it`,
      };
    }
    return outcome(this, result);
  },
};

async function resultOf(received: EvalUnderTest, matcher: string): Promise<EvalResult> {
  if (received instanceof EvalBuilder) return received.run();
  const result = await received;
  if (typeof (result as Partial<EvalResult> | undefined)?.assertPasses !== 'function') {
    throw new TypeError(`${matcher}() takes evaluate(...) (a builder) or the result of its run()`);
  }
  return result;
}

function outcome(ctx: MatcherContext, result: EvalResult): MatcherOutcome {
  return {
    pass: result.passed,
    message: () => {
      if (ctx.isNot) return `expected the eval not to pass, but it passed (verdict ${result.verdict}, score ${result.score.toFixed(2)})`;
      try {
        result.assertPasses();
        return 'expected the eval to pass';
      } catch (err) {
        return (err as Error).message;
      }
    },
  };
}
