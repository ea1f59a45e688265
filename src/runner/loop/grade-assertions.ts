import type { AssertionContext } from '../../assertions/types.js';
import type { UserAssertions } from '../../assertions/user-assertion.js';
import type { PredicateBound } from '../../assertions/custom.js';
import { defaultSeverityOf, evaluateDeterministic } from '../../assertions/evaluate.js';
import { isJudgeType, type JudgeAssertionSpec } from '../../judges/spec.js';
import type { AssertionResult } from '../../core/results-schema.js';
import type { TsAssertionSpec } from '../../suite/schema.js';
import { addUsage, emptyUsage, type Usage } from '../../core/usage.js';
import { assertionName } from '../../assertions/assertion-name.js';
import { notAsked, type JudgeService, type JudgeTrialContext } from '../../judges/judge-service.js';
import type { Judgment } from '../../judges/judgment.js';
import { judgedResult } from '../../judges/judged-result.js';
import { isFailedGate } from './verdict.js';
import { isSimilarTo } from '../../assertions/similar-to.js';
import { similarToUngraded } from '../../judges/similar-to-service.js';

/** One assertion of a trial, as the trial lists them. */
export interface TrialAssertion {
  spec: TsAssertionSpec;
  /** The 1-based turn it checks, recorded in its result; absent: the whole run and its last reply. */
  turn?: number;
  /** A judged assertion already read inside `check` (`.result()`): its judgment is reused, never asked again. */
  early?: Promise<Judgment>;
}

export interface GradeOptions {
  /** What an assertion checks: the whole run (no turn), or one turn of a conversation. */
  contextOf(turn: number | undefined): AssertionContext;
  judges: JudgeService;
  /** The run's user assertions (its settings'): what a `userAssertion` spec runs. */
  userAssertions: UserAssertions;
  /** How long a custom or user assertion may take (the case's timeoutMs, the trial's signal). */
  bound?: PredicateBound;
  skipJudgesOnGateFailure: boolean;
  /** Called once the gates are checked, before any judge is asked. */
  beforeJudges?(): void;
  judgeContext: Omit<JudgeTrialContext, 'reply'>;
}

/**
 * A trial's assertions, gates first: every deterministic assertion is checked before any judge
 * starts, and once a gate failed the judges are skipped (zero tokens). Results keep the list's order.
 */
export async function gradeAssertions(list: TrialAssertion[], opts: GradeOptions): Promise<{ assertions: AssertionResult[]; judgeUsage: Usage }> {
  const checked = new Map<TrialAssertion, AssertionResult>();
  for (const a of list) {
    if (!isJudgeType(a.spec.type) && !isSimilarTo(a.spec)) checked.set(a, await deterministicResult(a.spec, opts.contextOf(a.turn), opts.userAssertions, opts.bound));
  }
  const skip = opts.skipJudgesOnGateFailure && [...checked.values()].some(isFailedGate);
  opts.beforeJudges?.();
  const defaults = opts.judgeContext.subject.judgeDefaults;
  const graded = await Promise.all(
    list.map(async (a): Promise<{ result: AssertionResult; usage?: Usage }> => {
      const done = checked.get(a);
      if (done) return { result: done };
      if (isSimilarTo(a.spec)) {
        const grade = opts.judges.similarTo;
        if (skip || !grade) return similarToUngraded(a.spec, defaults, skip ? 'gate-failed' : 'no-grader');
        return grade(a.spec, opts.contextOf(a.turn).reply, defaults, opts.judgeContext.signal);
      }
      const spec = a.spec as JudgeAssertionSpec;
      // A judge read early has run (and spent its tokens): its answer stands either way.
      // Not asked because a gate failed: zero tokens, but the judge it would have had is recorded.
      const judgment = await (a.early ??
        (skip ? notAsked(opts.judges, 'skipped', spec, opts.judgeContext) : opts.judges.judge(spec, { ...opts.judgeContext, reply: spec.on ?? opts.contextOf(a.turn).reply })));
      return judgedResult(spec, defaults, judgment);
    }),
  );
  return {
    assertions: graded.map((g, k) => withTurn(g.result, list[k]!.turn)),
    judgeUsage: addUsage(emptyUsage(), ...graded.flatMap((g) => (g.usage ? [g.usage] : []))),
  };
}

function withTurn(r: AssertionResult, turn: number | undefined): AssertionResult {
  return turn === undefined ? r : { ...r, turn };
}

export async function deterministicResult(spec: TsAssertionSpec, ctx: AssertionContext, userAssertions: UserAssertions, bound?: PredicateBound): Promise<AssertionResult> {
  const threshold = spec.threshold ?? 1;
  const outcome = await evaluateDeterministic(spec as never, ctx, userAssertions, bound);
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
    ...(outcome.evidence ? { evidence: outcome.evidence } : {}),
  };
}

function clamp01(x: number): number {
  return Number.isFinite(x) ? Math.min(1, Math.max(0, x)) : 0;
}
