import type { AgentRun } from '../trace/agent-run.js';
import { addUsage, emptyUsage, type Usage } from '../trace/usage.js';
import type { AssertionContext } from '../assertions/types.js';
import { evaluateDeterministic, defaultSeverityOf } from '../assertions/evaluate.js';
import { isJudgeType, type JudgeAssertionSpec, type ModelRef } from '../judges/spec.js';
import type { Judge } from '../judges/contract.js';
import type { AssertionResult, TrialResult } from '../report/results-schema.js';
import type { PlannedCase } from '../suite/plan.js';
import { createCheckApi } from '../suite/check-api.js';
import { TsAssertionSpecSchema, type TsAssertionSpec } from '../suite/schema.js';
import type { Target } from '../targets/types.js';
import { errorMessage } from '../errors.js';
import type { JudgeService } from './judge-service.js';
import { assertionName } from './assertion-name.js';
import { usageOfRun, type Pricing } from './run-usage.js';
import { isFailedGate, trialScore, trialVerdict } from './verdict.js';
import { withTimeout } from './timeout.js';

export interface TrialDeps {
  target: Target;
  judges: JudgeService;
  pricing: Pricing;
  skipJudgesOnGateFailure: boolean;
  /** Aborts in-flight work (Ctrl-C after the grace period). */
  signal: AbortSignal;
}

/** One trial as a small pipeline: target → deterministic gates → judges → verdict. */
export async function executeTrial(c: PlannedCase, index: number, deps: TrialDeps): Promise<TrialResult> {
  const started = performance.now();
  let run: AgentRun;
  try {
    run = await withTimeout(
      (signal) => deps.target.run({ suite: c.suite, id: c.id, trial: index, input: c.input, messages: c.messages }, signal),
      c.timeoutMs,
      deps.signal,
    );
  } catch (err) {
    return failedTrial(index, performance.now() - started, `target ${c.targetName}: ${errorMessage(err)}`);
  }
  const durationMs = performance.now() - started;
  const targetUsage = usageOfRun(run, deps.pricing);

  let specs: TsAssertionSpec[] = c.assertions;
  let caseJudge: ModelRef | Judge | undefined;
  if (c.check) {
    const api = createCheckApi({ input: c.input, reference: c.reference, run });
    try {
      await c.check(api.t);
    } catch (err) {
      return { ...failedTrial(index, durationMs, `check() threw: ${errorMessage(err)}`, run), usage: { target: targetUsage, judge: emptyUsage() } };
    }
    const invalid = api.specs.map((s) => TsAssertionSpecSchema.safeParse(s)).find((r) => !r.success);
    if (invalid && !invalid.success) {
      const issue = invalid.error.issues[0]!;
      return { ...failedTrial(index, durationMs, `check(): invalid assertion: ${issue.path.join('.')}: ${issue.message}`, run), usage: { target: targetUsage, judge: emptyUsage() } };
    }
    specs = [...specs, ...api.specs];
    caseJudge = api.caseJudge();
  }

  const ctx: AssertionContext = { reply: run.reply, run, durationMs, usage: targetUsage };
  const results: Array<AssertionResult | undefined> = new Array(specs.length);
  // Deterministic assertions first: judges only start once every gate of the trial is known.
  for (const [i, spec] of specs.entries()) {
    if (isJudgeType(spec.type)) continue;
    results[i] = await deterministicResult(spec, ctx);
  }
  const gateFailed = results.some((r) => r !== undefined && isFailedGate(r));
  let judgeUsage = emptyUsage();
  const judged = specs.flatMap((spec, i) => (isJudgeType(spec.type) ? [{ spec: spec as JudgeAssertionSpec, i }] : []));
  if (gateFailed && deps.skipJudgesOnGateFailure) {
    for (const { spec, i } of judged) results[i] = skippedJudge(spec);
  } else {
    const graded = await Promise.all(
      judged.map(({ spec }) => deps.judges.grade(spec, { plannedCase: c, trialIndex: index, run, reply: spec.on ?? run.reply, caseJudge, signal: deps.signal })),
    );
    judged.forEach(({ i }, k) => (results[i] = graded[k]!.result));
    judgeUsage = addUsage(...graded.map((g) => g.usage));
  }

  const assertions = results as AssertionResult[];
  const { reply, ...trace } = run;
  return {
    index,
    verdict: trialVerdict(assertions, false),
    score: trialScore(assertions, false),
    durationMs,
    reply,
    usage: { target: targetUsage, judge: judgeUsage },
    assertions,
    trace,
  };
}

async function deterministicResult(spec: TsAssertionSpec, ctx: AssertionContext): Promise<AssertionResult> {
  const threshold = spec.threshold ?? 1;
  const outcome = await evaluateDeterministic(spec as never, ctx);
  return {
    name: assertionName(spec as never),
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

function skippedJudge(spec: JudgeAssertionSpec): AssertionResult {
  return {
    name: assertionName(spec),
    kind: spec.type,
    severity: spec.severity ?? 'soft',
    status: 'skipped',
    score: 0,
    threshold: spec.threshold ?? 0.7,
    weight: spec.weight ?? 1,
    message: 'skipped: a gate of this trial failed',
  };
}

function failedTrial(index: number, durationMs: number, error: string, run?: AgentRun): TrialResult {
  const { reply = '', ...trace } = run ?? { reply: '' };
  return {
    index,
    verdict: 'failed',
    score: 0,
    durationMs,
    error,
    reply,
    usage: { target: emptyUsage(), judge: emptyUsage() },
    assertions: [],
    trace,
  };
}

function clamp01(x: number): number {
  return Number.isFinite(x) ? Math.min(1, Math.max(0, x)) : 0;
}

export type { Usage };
