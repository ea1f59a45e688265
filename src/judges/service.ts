import { join } from 'node:path';
import type { AssertionResult } from '../core/results-schema.js';
import type { JudgeService, JudgeTrialContext } from '../runner/judge-service.js';
import { noJudgeService } from '../runner/judge-service.js';
import { assertionName } from '../assertions/assertion-name.js';
import type { Pricing } from '../providers/run-usage.js';
import type { PlannedCase } from '../suite/plan.js';
import { toolCallsOf, type AgentRun } from '../core/agent-run.js';
import { emptyUsage, type Usage } from '../core/usage.js';
import { UserError } from '../core/errors.js';
import { JudgeProtocolError } from './agent-judge-protocol.js';
import { AGENT_MODEL_UNKNOWN } from './agent-judge.js';
import { JudgeCache } from './cache.js';
import type { SecretRedactor } from '../providers/secret-redactor.js';
import { buildJudgeRequest, JudgeResponseError, type Judge, type JudgeScore } from '../core/judge-port.js';
import { CriterionError, criterionFromSpec, dimensionMinimums, severityOf, thresholdOf } from './criterion-from-spec.js';
import { judgeInstances } from './judge-instances.js';
import { judgePairwise } from './pairwise-both-orders.js';
import { keptJudgeLabel, KeptJudgeNotice, resolveAssertionJudge } from './kept-judges.js';
import { refKey } from './resolve.js';
import { isJudgeType, type JudgeAssertionSpec } from './spec.js';
import { boundGradedOutput } from './graded-output.js';
import type { JudgeSettings } from './settings.js';
import type { ProviderLimiters } from '../providers/adaptive-limit.js';

export interface JudgeServiceOptions {
  /** The judges' share of the run's settings (`--judge`, `--dry-run`, the cache, the config's judges). */
  settings: JudgeSettings;
  pricing: Pricing;
  env: NodeJS.ProcessEnv;
  warn(message: string): void;
  /** The run's provider limiters, for every judge's provider (an agent judge's too). */
  limiters: ProviderLimiters;
  /** Applied to what the judge cache writes to disk. */
  redactor?: SecretRedactor;
}

/**
 * The runner's judge service: resolves each assertion's judge, builds the request, runs it
 * (pairwise in both orders) and turns the score into an assertion result. Pass is decided here,
 * in code: score ≥ threshold and every dimension at its minimum.
 */
export function createJudgeService(opts: JudgeServiceOptions): JudgeService & { prepare(cases: PlannedCase[]): void; judgeModels(cases: PlannedCase[]): string[]; close(): Promise<void> } {
  const { settings } = opts;
  const cache = settings.cache ? new JudgeCache(join(settings.outputDir, 'cache', 'judge'), settings.cacheMaxEntries, opts.redactor) : undefined;
  const selfJudgeWarned = new Set<string>();
  const { judgeFor } = judgeInstances({ settings, cache, pricing: opts.pricing, env: opts.env, warn: opts.warn, limiters: opts.limiters });

  const notice = settings.override !== undefined ? new KeptJudgeNotice(refKey(settings.override), opts.warn) : undefined;
  /** The assertion's judge, and the label of its own judge when `--judge` left it that one. */
  const resolveFor = (spec: JudgeAssertionSpec, c: PlannedCase, checkApi?: JudgeTrialContext['caseJudge']) => {
    const resolved = resolveAssertionJudge(
      { ...(settings.override !== undefined ? { override: settings.override } : {}), assertion: spec.judge, checkApi, caseOrSuite: c.judge, config: settings.judge },
      settings.judges,
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
      if (!settings.dryRun) notice?.announce(kept);
    },

    /** `provider:model` of the judges the cases' assertions use (a fake judge spends nothing): what a budget must price. */
    judgeModels(cases) {
      if (settings.dryRun) return [];
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
      const ref = settings.dryRun ? 'fake' : refFor(spec, ctx.plannedCase, ctx.caseJudge);
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
          output: boundGradedOutput(ctx.reply, settings.judgeMaxOutputChars),
          input: ctx.plannedCase.input,
          ...(transcript ? { transcript } : {}),
          ...(spec.targetInstructions !== false ? instructionsOf(ctx) : {}),
          run: ctx.run,
          tracePolicy: spec.trace ?? settings.trace,
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
        const usage = (err as { usage?: Usage }).usage ?? emptyUsage();
        const known = err instanceof JudgeResponseError || err instanceof CriterionError || err instanceof JudgeProtocolError;
        const message = known ? (err instanceof JudgeProtocolError ? `JudgeProtocolError: ${err.message}` : err.message) : `judge call failed: ${err instanceof Error ? err.message : String(err)}`;
        const raw = err instanceof JudgeResponseError ? err.raw : undefined;
        const run = (err as { run?: AgentRun }).run;
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
