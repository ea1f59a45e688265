import type { AssertionContext } from '../assertions/types.js';
import { defaultSeverityOf, evaluateDeterministic } from '../assertions/evaluate.js';
import { severityOf, thresholdOf, type JudgedDefaults } from '../judges/criterion-from-spec.js';
import { isJudgeType, type JudgeAssertionSpec } from '../judges/spec.js';
import type { AssertionResult } from '../core/results-schema.js';
import type { TsAssertionSpec } from '../suite/schema.js';
import { addUsage, emptyUsage, type Usage } from '../core/usage.js';
import { assertionName } from '../assertions/assertion-name.js';
import type { JudgeService, JudgeTrialContext } from './judge-service.js';
import { isFailedGate } from './verdict.js';

export interface GradeOptions {
  /** What assertion `i` checks: the whole run, or one turn of a conversation. */
  contextOf(i: number): AssertionContext;
  /** The 1-based turn assertion `i` checks, recorded in its result. */
  turnOf(i: number): number | undefined;
  judges: JudgeService;
  skipJudgesOnGateFailure: boolean;
  judgeContext: Omit<JudgeTrialContext, 'reply'>;
  /** A judged assertion already read inside `check` (`.result()`): its answer is reused, never asked again. */
  preGraded?(i: number): Promise<Graded> | undefined;
}

type Graded = { result: AssertionResult; usage: Usage };

/**
 * A trial's assertions, gates first: every deterministic assertion is checked before any judge
 * starts, and once a gate failed the judges are skipped (zero tokens). Results keep the specs' order.
 */
export async function gradeAssertions(specs: TsAssertionSpec[], opts: GradeOptions): Promise<{ assertions: AssertionResult[]; judgeUsage: Usage }> {
  const results = new Array<AssertionResult>(specs.length);
  const withTurn = (r: AssertionResult, i: number): AssertionResult => {
    const turn = opts.turnOf(i);
    return turn === undefined ? r : { ...r, turn };
  };
  for (const [i, spec] of specs.entries()) {
    if (!isJudgeType(spec.type)) results[i] = withTurn(await deterministicResult(spec, opts.contextOf(i)), i);
  }
  const judged = specs.flatMap((spec, i) => (isJudgeType(spec.type) ? [{ spec: spec as JudgeAssertionSpec, i }] : []));
  const skip = opts.skipJudgesOnGateFailure && results.some((r) => r !== undefined && isFailedGate(r));
  const graded = await Promise.all(
    judged.map(({ spec, i }): Promise<Graded> => {
      // A judge read early has run (and spent its tokens): its answer stands either way.
      const early = opts.preGraded?.(i);
      if (early) return early;
      if (skip) return Promise.resolve({ result: skippedJudge(spec, opts.judgeContext.plannedCase.judgeDefaults), usage: emptyUsage() });
      return opts.judges.grade(spec, { ...opts.judgeContext, reply: spec.on ?? opts.contextOf(i).reply });
    }),
  );
  judged.forEach(({ i }, k) => (results[i] = withTurn(graded[k]!.result, i)));
  return { assertions: results, judgeUsage: addUsage(emptyUsage(), ...graded.map((g) => g.usage)) };
}

export async function deterministicResult(spec: TsAssertionSpec, ctx: AssertionContext): Promise<AssertionResult> {
  const threshold = spec.threshold ?? 1;
  const outcome = await evaluateDeterministic(spec as never, ctx);
  return {
    name: assertionName(spec),
    kind: spec.type,
    severity: spec.severity ?? defaultSeverityOf(spec.type),
    status: outcome.score >= threshold ? 'passed' : 'failed',
    score: clamp01(outcome.score),
    threshold,
    weight: spec.weight ?? 1,
    message: outcome.message,
    ...(outcome.reason ? { reason: outcome.reason } : {}),
  };
}

export function skippedJudge(spec: JudgeAssertionSpec, defaults: JudgedDefaults): AssertionResult {
  return {
    name: assertionName(spec),
    kind: spec.type,
    severity: severityOf(spec, defaults),
    status: 'skipped',
    score: 0,
    threshold: thresholdOf(spec, defaults),
    weight: spec.weight ?? 1,
    message: 'skipped: a gate of this trial failed',
  };
}

function clamp01(x: number): number {
  return Number.isFinite(x) ? Math.min(1, Math.max(0, x)) : 0;
}
