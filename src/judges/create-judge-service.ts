import type { JudgeService, JudgeTrialContext } from './judge-service.js';
import type { JudgeIdentity, Judgment } from './judgment.js';
import { assertionName } from '../assertions/assertion-name.js';
import type { Pricing } from '../providers/run-usage.js';
import type { JudgeSubject } from '../core/judge-subject.js';
import type { AgentRun } from '../core/agent-run.js';
import { errorMessage, JudgeError, spentOf, UserError } from '../core/errors.js';
import { AGENT_MODEL_UNKNOWN } from './agent-judge.js';
import { judgeCacheFor } from './cache.js';
import type { SecretRedactor } from '../providers/secret-redactor.js';
import { buildJudgeRequest, type Judge } from '../core/judge-port.js';
import { criterionFromSpec, thresholdOf } from './criterion-from-spec.js';
import { judgeFingerprint } from './judge-fingerprint.js';
import type { JudgeFingerprint } from '../core/results-schema.js';
import { judgeInstances } from './judge-instances.js';
import { staticJudgedSpecs } from './judged-specs.js';
import { judgePairwise } from './pairwise-both-orders.js';
import { keptJudgeLabel, KeptJudgeNotice, resolveAssertionJudge } from './kept-judges.js';
import { calledModel, judgeModelUsesOf, type JudgeModelUse } from './judge-model-uses.js';
import { refKey, type SingleJudgeRef } from './resolve.js';
import { isPanelRef } from './panel-spec.js';
import { memberLabel, panelFingerprint, panelJudgment, singleRefs } from './panel-judgment.js';
import type { JudgeAssertionSpec, ModelRef } from './spec.js';
import { boundGradedOutput } from './graded-output.js';
import type { JudgeSettings } from './settings.js';
import type { ProviderLimiters } from '../providers/adaptive-limit.js';
import type { JudgeBatch } from './judge-batch.js';
import { redactJudgeRequest } from '../providers/judge-request-redaction.js';
import { judgeAttachments } from './judge-attachments.js';
import { selfJudgingWarning } from './self-preference.js';
import { withJudgeNoise } from './judge-noise.js';
import { similarToGrader } from './similar-to-service.js';

export interface JudgeServiceOptions {
  /** The judges' share of the run's settings (`--judge`, `--dry-run`, the cache, the config's judges). */
  settings: JudgeSettings;
  pricing: Pricing;
  env: NodeJS.ProcessEnv;
  warn(message: string): void;
  /** The run's provider limiters, for every judge's provider (an agent judge's too). */
  limiters: ProviderLimiters;
  /** Applied to every judge request and to what the judge cache writes to disk. */
  redactor?: SecretRedactor;
  /** `--judge-batch`: inference judges' calls wait in this batch (judge-batch.ts). */
  batch?: JudgeBatch;
}

type RunJudgeService = JudgeService & {
  prepare(cases: readonly JudgeSubject<ModelRef>[]): void;
  judgeModels(cases: readonly JudgeSubject<ModelRef>[]): string[];
  judgeModelUses(cases: readonly JudgeSubject<ModelRef>[]): JudgeModelUse[];
  close(): Promise<void>;
};

/**
 * The run's judge service, which the runner asks: resolves each assertion's judge for a case (a
 * JudgeSubject), builds the request and runs it (pairwise in both orders). It returns what the judge
 * said (a score or a typed failure with what it spent); `judgedResult` turns that into the assertion result.
 */
export function createJudgeService(opts: JudgeServiceOptions): RunJudgeService {
  const { settings } = opts;
  const cache = judgeCacheFor(settings, opts.redactor);
  const selfJudgeChecked = new Set<string>();
  const { judgeFor } = judgeInstances({ settings, cache, pricing: opts.pricing, env: opts.env, warn: opts.warn, limiters: opts.limiters, ...(opts.batch ? { batch: opts.batch } : {}) });

  const notice = settings.override !== undefined ? new KeptJudgeNotice(refKey(settings.override), opts.warn) : undefined;
  /** The assertion's judge, and the label of its own judge when `--judge` left it that one. */
  const resolveFor = (spec: JudgeAssertionSpec, c: JudgeSubject<ModelRef>, checkApi?: JudgeTrialContext['caseJudge']) => {
    const resolved = resolveAssertionJudge(
      { assertion: spec.judge, checkApi, caseOrSuite: c.judge, config: settings.judge, ...(settings.override !== undefined ? { override: settings.override } : {}) },
      settings.judges,
    );
    const keptOwn = resolved?.keptOwn;
    return { ref: resolved?.ref, origin: resolved?.origin, kept: keptOwn !== undefined ? ([`${c.key} › ${assertionName(spec)}`, keptJudgeLabel(keptOwn)] as [string, string]) : undefined };
  };
  const refFor = (spec: JudgeAssertionSpec, c: JudgeSubject<ModelRef>, checkApi?: JudgeTrialContext['caseJudge']) => {
    const { ref, kept } = resolveFor(spec, c, checkApi);
    // Found while running (a TS check's assertion): announced on its own, once.
    if (kept) notice?.announce([kept]);
    return ref;
  };

  const service: RunJudgeService = {
    async close() {
      await cache?.close();
    },

    /** Builds every judge the static specs name, so a missing key stops the run before any trial. */
    prepare(cases) {
      const kept: Array<[string, string]> = [];
      for (const c of cases) {
        // Turn assertions too: a judge named only in a turn is built (and its key checked) before the run.
        for (const spec of staticJudgedSpecs(c)) {
          const resolved = resolveFor(spec, c);
          if (resolved.kept) kept.push(resolved.kept);
          const ref = resolved.ref;
          if (!ref) continue;
          try {
            for (const one of singleRefs(ref)) judgeFor(one);
          } catch (err) {
            // Point at the case that names the judge, unless the error names its own file (a fake
            // judge's fixtures): the case may take that judge from the config, and is not at fault.
            if (err instanceof UserError && err.file === undefined) throw new UserError(err.message.replace(/^judge: /, ''), { file: c.file, line: c.line ?? undefined, field: 'judge' });
            throw err;
          }
        }
      }
      if (!settings.dryRun) notice?.announce(kept);
    },

    /** `provider:model` of the judges the cases' assertions use (a fake judge spends nothing): what a budget must price. */
    judgeModels(cases) {
      return [...new Set(service.judgeModelUses(cases).map((u) => u.model))];
    },

    /** Each judge model with who calls it (a judge named in an eval file by that file), for the run's warnings. */
    judgeModelUses(cases) {
      if (settings.dryRun) return [];
      // An agent judge built from a factory names its model only when it judges (priced then); a prompt
      // judge's callable reports its model, if any, with its answer.
      return judgeModelUsesOf(cases, settings, (one) => calledModel(judgeFor(one)));
    },

    async judge(spec, ctx) {
      const ref = settings.dryRun ? 'fake' : refFor(spec, ctx.subject, ctx.caseJudge);
      if (!ref) return { kind: 'no-judge' };
      // A panel: each member judges as it would alone (its own cache, batch and usage).
      if (isPanelRef(ref)) return panelJudgment(ref.aggregate ?? 'majority', await Promise.all(ref.panel.map(async (one) => ({ label: memberLabel(one), judgment: await judgeWith(one, spec, ctx) }))));
      return judgeWith(ref, spec, ctx);
    },

    similarTo: similarToGrader({ settings, cache, pricing: opts.pricing, env: opts.env, limiters: opts.limiters, ...(opts.redactor ? { redactor: opts.redactor } : {}) }),

    identify(spec, ctx) {
      const ref = settings.dryRun ? 'fake' : resolveFor(spec, ctx.subject, ctx.caseJudge).ref;
      if (!ref) return undefined;
      if (!isPanelRef(ref)) return identifyWith(ref, spec, ctx);
      const members = ref.panel.map((one) => ({ judgment: { fingerprint: identifyWith(one, spec, ctx) } }));
      return panelFingerprint(ref.aggregate ?? 'majority', `${ref.aggregate ?? 'majority'}(${ref.panel.map(memberLabel).join(', ')})`, members);
    },
  };

  /** One judge's judgment of one assertion. */
  async function judgeWith(ref: SingleJudgeRef, spec: JudgeAssertionSpec, ctx: JudgeTrialContext): Promise<Judgment> {
    let judge: Judge;
    try {
      judge = judgeFor(ref, ctx.live === true);
    } catch (err) {
      return { kind: 'failed', error: new JudgeError('unavailable', errorMessage(err), { cause: err }) };
    }
    // A multi-turn trial's whole conversation, else the case's own history.
    const transcript = ctx.transcript ?? (ctx.subject.messages.length > 1 ? ctx.subject.messages : undefined);
    try {
      const built = buildJudgeRequest({
        criterion: criterionFromSpec(spec, ctx.subject.reference, ctx.run),
        output: boundGradedOutput(ctx.reply, settings.judgeMaxOutputChars),
        input: ctx.subject.input,
        ...judgeAttachments(ctx.subject, ctx.sentAttachments),
        ...(transcript ? { transcript } : {}),
        ...(ctx.untrustedUserTurns ? { untrustedUserTurns: true } : {}),
        ...(spec.targetInstructions !== false ? instructionsOf(ctx) : {}),
        run: ctx.run,
        tracePolicy: spec.trace ?? settings.trace,
        subject: { case: ctx.subject.key, assertion: assertionName(spec), type: spec.type },
        signal: ctx.signal,
      });
      // The run's secrets never reach a judge (possibly another provider), nor its cache key.
      const request = redactJudgeRequest(built, opts.redactor);
      if (spec.type === 'pairwise') {
        const criterion = request.criterion as Extract<typeof request.criterion, { kind: 'pairwise' }>;
        const { outcome: _outcome, positionInconsistent, ...score } = await judgePairwise(judge, request, criterion.second, spec.prefer ?? 'actual', spec.positionSwap !== false);
        const by = answeredBy(judge, score.run);
        warnSelfJudging(ctx, by);
        return { kind: 'scored', score, by, positionInconsistent, fingerprint: fingerprintOf(judge, by, spec, ctx) };
      }
      const score = await judge.judge(request);
      const by = answeredBy(judge, score.run);
      // After the judgment: an agent judge's model is known once its factory ran.
      warnSelfJudging(ctx, by);
      return { kind: 'scored', score, by, fingerprint: fingerprintOf(judge, by, spec, ctx) };
    } catch (err) {
      const error = asJudgeError(err);
      const by = answeredBy(judge, error.spent?.run);
      return { kind: 'failed', error, by, fingerprint: fingerprintOf(judge, by, spec, ctx) };
    }
  }

  function identifyWith(ref: SingleJudgeRef, spec: JudgeAssertionSpec, ctx: Omit<JudgeTrialContext, 'reply'>): JudgeFingerprint | undefined {
    let judge: Judge;
    try {
      judge = judgeFor(ref, ctx.live === true);
    } catch {
      return undefined;
    }
    // A factory agent judge names its model only once it judged.
    if (judge.provider === AGENT_MODEL_UNKNOWN) return undefined;
    return fingerprintOf(judge, answeredBy(judge, undefined), spec, ctx);
  }
  // --judge-noise: the re-asks go to a second service of the same judges with the cache and the batch off.
  const { noise } = settings;
  if (noise) return withJudgeNoise(service, createJudgeService({ ...opts, settings: { ...settings, cache: false, batch: false, noise: undefined }, batch: undefined }), noise);
  return service;

  /** Who judged (the model that answered, the judge's persona, settings and tools) and by which criterion, as its threshold and trace policy stand in this run. */
  function fingerprintOf(judge: Judge, by: JudgeIdentity, spec: JudgeAssertionSpec, ctx: Pick<JudgeTrialContext, 'subject'>): JudgeFingerprint {
    const who = {
      provider: by.provider,
      model: by.model,
      ...(by.system !== undefined ? { system: by.system } : {}),
      ...(judge.calledWith ? { calledWith: judge.calledWith } : {}),
      ...(judge.tools ? { tools: judge.tools } : {}),
    };
    return judgeFingerprint(who, spec, { threshold: thresholdOf(spec, ctx.subject.judgeDefaults), trace: spec.trace ?? settings.trace });
  }

  /** Once per judge and target model: the judge is that model, or of its family (self-preference). */
  function warnSelfJudging(ctx: JudgeTrialContext, judge: { provider: string; model: string }): void {
    if (!settings.selfJudgingWarning) return;
    const spec = `${judge.provider}:${judge.model}`;
    const check = (target: string | undefined) => {
      if (!target) return;
      const pair = `${spec} ${target}`;
      // Checked once per pair, warned or not: the answer never changes.
      if (selfJudgeChecked.has(pair)) return;
      selfJudgeChecked.add(pair);
      const warning = selfJudgingWarning(spec, target);
      if (warning) opts.warn(warning);
    };
    check(ctx.run.model);
    for (const s of ctx.run.steps ?? []) check(s.model);
  }
}

/**
 * The judge's provider and model as reported: an agent judge's run names the model that really
 * answered (its factory may pick one per judgment), else the judge's own; and its persona override.
 */
function answeredBy(judge: Judge, run: AgentRun | undefined): JudgeIdentity {
  const colon = run?.model?.indexOf(':') ?? -1;
  const by: JudgeIdentity = run?.model && colon > 0 ? { provider: run.model.slice(0, colon), model: run.model.slice(colon + 1) } : { provider: judge.provider, model: judge.model };
  if (judge.system !== undefined) by.system = judge.system;
  if (judge.batch) by.batch = true;
  return by;
}

/** What a judge threw, as a typed failure: anything not a JudgeError is a failed call. */
function asJudgeError(err: unknown): JudgeError {
  if (err instanceof JudgeError) return err;
  const spent = spentOf(err);
  return new JudgeError('call', errorMessage(err), { cause: err, ...(spent.usage || spent.run ? { spent } : {}) });
}

/** The config's instructions are trusted; those a target reported (`AgentRun.instructions`) go to the judge as untrusted data. */
function instructionsOf(ctx: JudgeTrialContext): { instructions?: string; reportedInstructions?: string } {
  if (ctx.trustedInstructions) return { instructions: ctx.trustedInstructions };
  return ctx.run.instructions ? { reportedInstructions: ctx.run.instructions } : {};
}
