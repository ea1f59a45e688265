import { join } from 'node:path';
import type { ResolvedConfig } from '../config/load-config.js';
import type { AssertionResult } from '../core/results-schema.js';
import type { JudgeService, JudgeTrialContext } from './judge-service.js';
import { noJudgeService } from './judge-service.js';
import { assertionName } from './assertion-name.js';
import type { Pricing } from './run-usage.js';
import type { PlannedCase } from '../suite/plan.js';
import { toolCallsOf, type AgentRun } from '../core/agent-run.js';
import { emptyUsage, type Usage } from '../core/usage.js';
import { CriterionError, JudgeProtocolError, JudgeResponseError, spentOf, UserError } from '../core/errors.js';
import { AGENT_MODEL_UNKNOWN } from '../judges/agent-judge.js';
import { JudgeCache } from '../judges/cache.js';
import type { SecretRedactor } from '../providers/secret-redactor.js';
import { buildJudgeRequest, type Judge, type JudgeScore } from '../core/judge-port.js';
import { criterionFromSpec, dimensionMinimums, severityOf, thresholdOf } from '../judges/criterion-from-spec.js';
import { judgeInstances } from '../judges/judge-instances.js';
import { judgePairwise } from '../judges/pairwise-both-orders.js';
import { keptJudgeLabel, KeptJudgeNotice, resolveAssertionJudge } from '../judges/kept-judges.js';
import { refKey, type JudgeRef } from '../judges/resolve.js';
import { isJudgeType, type JudgeAssertionSpec } from '../judges/spec.js';
import { boundGradedOutput } from '../judges/graded-output.js';

export interface JudgeServiceOptions {
  config: ResolvedConfig;
  /** `--judge provider:model`: one judge for the whole run. */
  override?: JudgeRef;
  /** `--dry-run`: every judge is the fake one; zero tokens. */
  dryRun: boolean;
  /** `--no-cache` (or `cache: false` in the config) turns off both the in-run sharing and the disk cache. */
  cache: boolean;
  pricing: Pricing;
  env: NodeJS.ProcessEnv;
  warn(message: string): void;
  /** Applied to what the judge cache writes to disk. */
  redactor?: SecretRedactor;
}

/**
 * The runner's judge service: resolves each assertion's judge, builds the request, runs it
 * (pairwise in both orders) and turns the score into an assertion result. Pass is decided here,
 * in code: score ≥ threshold and every dimension at its minimum.
 */
export function createJudgeService(opts: JudgeServiceOptions): JudgeService & { prepare(cases: PlannedCase[]): void; judgeModels(cases: PlannedCase[]): string[]; close(): Promise<void> } {
  const { config } = opts;
  const cache = opts.cache && config.cache ? new JudgeCache(join(config.outputDir, 'cache', 'judge'), config.cacheMaxEntries, opts.redactor) : undefined;
  const selfJudgeWarned = new Set<string>();
  const { judgeFor } = judgeInstances({ config, dryRun: opts.dryRun, cache, pricing: opts.pricing, env: opts.env, warn: opts.warn });

  const notice = opts.override !== undefined ? new KeptJudgeNotice(refKey(opts.override), opts.warn) : undefined;
  /** The assertion's judge, and the label of its own judge when `--judge` left it that one. */
  const resolveFor = (spec: JudgeAssertionSpec, c: PlannedCase, checkApi?: JudgeTrialContext['caseJudge']) => {
    const resolved = resolveAssertionJudge(
      { ...(opts.override !== undefined ? { override: opts.override } : {}), assertion: spec.judge, checkApi, caseOrSuite: c.judge, config: config.judge as JudgeRef | undefined },
      config.judges,
    );
    const keptOwn = resolved?.keptOwn;
    return { ref: resolved?.ref, kept: keptOwn !== undefined ? ([`${c.key} › ${assertionName(spec)}`, keptJudgeLabel(keptOwn)] as [string, string]) : undefined };
  };
  const refFor = (spec: JudgeAssertionSpec, c: PlannedCase, checkApi?: JudgeTrialContext['caseJudge']) => {
    const { ref, kept } = resolveFor(spec, c, checkApi);
    // Found while running (a TS check's assertion): announced on its own, once.
    if (kept) notice?.announce([kept]);
    return ref;
  };

  return {
    async close() {
      await cache?.close();
    },

    /** Builds every judge the static specs name, so a missing key stops the run before any trial. */
    prepare(cases) {
      const kept: Array<[string, string]> = [];
      for (const c of cases) {
        for (const spec of c.assertions) {
          if (!isJudgeType(spec.type)) continue;
          const resolved = resolveFor(spec as JudgeAssertionSpec, c);
          if (resolved.kept) kept.push(resolved.kept);
          const ref = resolved.ref;
          if (!ref) continue;
          try {
            judgeFor(ref);
          } catch (err) {
            // Point at the case that names the judge.
            if (err instanceof UserError) throw new UserError(err.message.replace(/^judge: /, ''), { file: c.file, line: c.line ?? undefined, field: 'judge' });
            throw err;
          }
        }
      }
      if (!opts.dryRun) notice?.announce(kept);
    },

    /** `provider:model` of the judges the cases' assertions use (a fake judge spends nothing): what a budget must price. */
    judgeModels(cases) {
      if (opts.dryRun) return [];
      const models = new Set<string>();
      for (const c of cases) {
        for (const spec of c.assertions) {
          const ref = isJudgeType(spec.type) ? resolveFor(spec as JudgeAssertionSpec, c).ref : undefined;
          const judge = ref ? judgeFor(ref) : undefined;
          // An agent judge built from a factory names its model only when it judges (priced then).
          if (judge && judge.provider !== 'fake' && judge.provider !== AGENT_MODEL_UNKNOWN) models.add(`${judge.provider}:${judge.model}`);
        }
      }
      return [...models];
    },

    async grade(spec, ctx) {
      const ref = opts.dryRun ? 'fake' : refFor(spec, ctx.plannedCase, ctx.caseJudge);
      if (!ref) return noJudgeService.grade(spec, ctx);
      const threshold = thresholdOf(spec, ctx.plannedCase.judgeDefaults);
      const base = { name: assertionName(spec), kind: spec.type, threshold, weight: spec.weight ?? 1 };
      // Messages lead with what was asked, not the label: reporters put a label in front once.
      const head = assertionName({ ...spec, label: undefined });
      let judge: Judge;
      try {
        judge = judgeFor(ref);
      } catch (err) {
        return errorResult(base, `${head}: ${err instanceof Error ? err.message : String(err)}`, emptyUsage());
      }
      // A multi-turn trial's whole conversation, else the case's own history.
      const transcript = ctx.transcript ?? (ctx.plannedCase.messages.length > 1 ? ctx.plannedCase.messages : undefined);
      try {
        const request = buildJudgeRequest({
          criterion: criterionFromSpec(spec, ctx.plannedCase.reference),
          output: boundGradedOutput(ctx.reply, config.judgeMaxOutputChars),
          input: ctx.plannedCase.input,
          ...(transcript ? { transcript } : {}),
          ...(spec.targetInstructions !== false ? instructionsOf(ctx) : {}),
          run: ctx.run,
          tracePolicy: spec.trace ?? config.trace,
          subject: { case: ctx.plannedCase.key, assertion: base.name, type: spec.type },
          signal: ctx.signal,
        });
        let score: JudgeScore;
        let positionInconsistent: boolean | undefined;
        if (spec.type === 'pairwise') {
          const criterion = request.criterion as Extract<typeof request.criterion, { kind: 'pairwise' }>;
          const r = await judgePairwise(judge, request, criterion.second, spec.prefer ?? 'actual', spec.positionSwap !== false);
          score = r;
          positionInconsistent = r.positionInconsistent;
        } else {
          score = await judge.judge(request);
        }
        const by = answeredBy(judge, score.run);
        // After the judgment: an agent judge's model is known once its factory ran.
        warnSelfJudging(ctx, by);
        const mins = dimensionMinimums(spec);
        const lowDims = Object.entries(mins).filter(([d, min]) => (score.dimensions?.[d] ?? 0) < min);
        const passed = score.score >= threshold && lowDims.length === 0;
        const verdictText = passed
          ? `score ${score.score.toFixed(2)} ≥ ${threshold.toFixed(2)}`
          : score.score < threshold
            ? `score ${score.score.toFixed(2)} < ${threshold.toFixed(2)}`
            : `dimension${lowDims.length > 1 ? 's' : ''} below minimum: ${lowDims.map(([d, min]) => `${d} ${(score.dimensions?.[d] ?? 0).toFixed(2)} < ${min.toFixed(2)}`).join(', ')}`;
        const result: AssertionResult = {
          ...base,
          severity: severityOf(spec, ctx.plannedCase.judgeDefaults),
          status: passed ? 'passed' : 'failed',
          score: score.score,
          message: `${head}: ${verdictText}${score.choice ? ` (${score.choice})` : ''}${positionInconsistent ? ' — verdict flipped with the order: position-inconsistent tie' : ''}`,
          reason: score.reason,
          evidence: score.evidence,
          ...(score.dimensions ? { dimensions: Object.fromEntries(Object.entries(score.dimensions).map(([d, s]) => [d, { score: s, min: mins[d] ?? 0 }])) } : {}),
          ...(score.raw !== undefined ? { raw: score.raw } : {}),
          ...(score.choice !== undefined ? { choice: score.choice } : {}),
          ...(positionInconsistent !== undefined ? { positionInconsistent } : {}),
          judge: {
            ...by,
            usage: score.usage,
            ...(score.cached ? { cached: true } : {}),
            ...(score.savedTokens ? { savedTokens: score.savedTokens } : {}),
            ...(score.run ? judgeRunFields(score.run) : {}),
          },
        };
        return { result, usage: score.usage };
      } catch (err) {
        const { usage = emptyUsage(), run } = spentOf(err);
        const known = err instanceof JudgeResponseError || err instanceof CriterionError || err instanceof JudgeProtocolError;
        const message = known ? (err instanceof JudgeProtocolError ? `JudgeProtocolError: ${err.message}` : err.message) : `judge call failed: ${err instanceof Error ? err.message : String(err)}`;
        const raw = err instanceof JudgeResponseError ? err.raw : undefined;
        return errorResult(base, `${head}: ${message}`, usage, { ...answeredBy(judge, run), ...(run ? judgeRunFields(run) : {}) }, raw);
      }
    },
  };

  function warnSelfJudging(ctx: JudgeTrialContext, judge: { provider: string; model: string }): void {
    const spec = `${judge.provider}:${judge.model}`;
    const targetModels = new Set([ctx.run.model, ...(ctx.run.steps ?? []).map((s) => s.model)].filter(Boolean));
    if (targetModels.has(spec) && !selfJudgeWarned.has(spec)) {
      selfJudgeWarned.add(spec);
      opts.warn(`the judge ${spec} is also the target's model: a model grading its own output tends to favour it`);
    }
  }
}

/**
 * The judge's provider and model as reported: an agent judge's run names the model that really
 * answered (its factory may pick one per judgment), else the judge's own.
 */
function answeredBy(judge: Judge, run: AgentRun | undefined): { provider: string; model: string } {
  const colon = run?.model?.indexOf(':') ?? -1;
  return run?.model && colon > 0 ? { provider: run.model.slice(0, colon), model: run.model.slice(colon + 1) } : { provider: judge.provider, model: judge.model };
}

/** An agent judge's own run in the results: counts, and the run itself (already under the trace policy). */
function judgeRunFields(run: AgentRun): { steps: number; toolCalls: number; run: AgentRun } {
  return { steps: run.steps?.length ?? 0, toolCalls: toolCallsOf(run).length, run };
}

/** A judge that failed or answered out of contract: an error, which always fails as a gate. */
function errorResult(
  base: Pick<AssertionResult, 'name' | 'kind' | 'threshold' | 'weight'>,
  message: string,
  usage: Usage,
  judge?: { provider: string; model: string; steps?: number; toolCalls?: number; run?: AgentRun },
  raw?: string,
): { result: AssertionResult; usage: Usage } {
  return {
    result: {
      ...base,
      severity: 'gate',
      status: 'error',
      score: 0,
      message,
      ...(raw !== undefined ? { raw } : {}),
      ...(judge ? { judge: { ...judge, usage } } : {}),
    },
    usage,
  };
}


/** The config's instructions are trusted; those a target reported (`AgentRun.instructions`) go to the judge as untrusted data. */
function instructionsOf(ctx: JudgeTrialContext): { instructions?: string; reportedInstructions?: string } {
  if (ctx.trustedInstructions) return { instructions: ctx.trustedInstructions };
  return ctx.run.instructions ? { reportedInstructions: ctx.run.instructions } : {};
}
