import type { AgentRun } from '../../core/agent-run.js';
import { NO_USER_ASSERTIONS, type UserAssertions } from '../../assertions/user-assertion.js';
import { emptyUsage, type Usage } from '../../core/usage.js';
import type { AssertionContext } from '../../assertions/types.js';
import { isJudgeType, type JudgeAssertionSpec, type ModelRef } from '../../judges/spec.js';
import type { Judge, TracePolicy } from '../../core/judge-port.js';
import type { AssertionResult, TrialResult } from '../../core/results-schema.js';
import type { PlannedCase } from '../../suite/plan.js';
import { createCheckApi, type RecordedAssertion } from '../../suite/check-api.js';
import { TsAssertionSpecSchema } from '../../suite/schema.js';
import type { Target } from '../../targets/types.js';
import { settleUserCode } from '../../assertions/custom.js';
import { deadlinesOf, pauseDeadlines, type PausableDeadline } from '../../core/deadline-pause.js';
import { notAsked, type JudgeService } from '../../judges/judge-service.js';
import type { Judgment } from '../../judges/judgment.js';
import { usageOfRun, type Pricing } from '../../providers/run-usage.js';
import { isFailedGate, trialScore, trialVerdict } from './verdict.js';
import { deterministicResult, gradeAssertions, type TrialAssertion } from './grade-assertions.js';
import { judgedResult } from '../../judges/judged-result.js';
import { Conversation } from './conversation.js';
import { endOnFailDetector } from './end-on-fail.js';
import { sentMessage } from './sent-message.js';
import type { MediaPart } from '../../core/content-parts.js';
import { isSimilarTo } from '../../assertions/similar-to.js';
import { withSimulatedUser, type UserModel } from '../users/index.js';

export interface TrialDeps {
  target: Target;
  judges: JudgeService;
  pricing: Pricing;
  /** The run's user assertions (its settings'): what a `userAssertion` spec runs; none when absent. */
  userAssertions?: UserAssertions;
  /** The run's trace policy, for the assertions' messages (`AssertionContext.tracePolicy`; absent: `safe`). */
  tracePolicy?: TracePolicy;
  skipJudgesOnGateFailure: boolean;
  /** Aborts in-flight work (Ctrl-C after the grace period). */
  signal: AbortSignal;
  /** The user model of a case's `simulatedUser` for one trial (runner/users/user-model.ts); without it such a case fails. */
  userModel?(c: PlannedCase, trial: number): UserModel;
  /** Called once the target, the check and the gates are done and the judges start, with what the target spent. */
  onJudging?(targetUsage: Usage, run: AgentRun): void;
}

/** One trial as a small pipeline: target → deterministic gates → judges → verdict. */
export async function executeTrial(c: PlannedCase, index: number, deps: TrialDeps): Promise<TrialResult> {
  // The target side: one run, or a conversation (YAML `turns:`, `t.send` in a TS check). All
  // turns accumulate into `run`; a failed turn fails the trial, keeping what was done before it.
  const policy = deps.tracePolicy ? { tracePolicy: deps.tracePolicy } : {};
  const detector = endOnFailDetector(c, () => ({ ...conversation.context(deps.pricing), ...policy }));
  const conversation = new Conversation(c, index, deps.target, deps.signal, c.simulatedUser ? deps.userModel?.(c, index) : undefined, detector);
  const userAssertions = deps.userAssertions ?? NO_USER_ASSERTIONS;
  // User code in an assertion gets what a turn of the target gets: the case's timeoutMs, and no more once the trial is cut off.
  const bound = { ms: c.timeoutMs, signal: deps.signal };
  const targetFailed = (): TrialResult => {
    const partial = conversation.hasRun ? conversation.run() : undefined;
    const usage = partial ? usageOfRun(partial, deps.pricing) : emptyUsage();
    return withTurns(failedTrial(index, conversation.durationMs, conversation.failure!, usage, partial));
  };
  const withTurns = (t: TrialResult): TrialResult => {
    const turns = conversation.turnResults(deps.pricing);
    return withSimulatedUser(c, conversation.simulated, turns ? { ...t, turns } : t);
  };
  if (!(await conversation.begin())) {
    await conversation.close();
    return targetFailed();
  }
  let run: AgentRun = conversation.run();
  // What a check's t.send() sent as parts, for its judges (after the case's own images and files).
  const sentAttachments = (): { sentAttachments?: MediaPart[] } => {
    const media = conversation.sentMedia();
    return media.length > 0 ? { sentAttachments: media } : {};
  };
  // Only the config's instructions are trusted by a judge; a target's own report of them is data.
  const trusted = deps.target.instructions !== undefined ? { trustedInstructions: deps.target.instructions } : {};
  let durationMs = conversation.durationMs;
  let targetUsage = usageOfRun(run, deps.pricing);

  // The trial's assertions in order: each YAML turn's, the case's own (the whole run), then what `check` records.
  const staticAssertions: TrialAssertion[] = [...(c.turns ?? []).flatMap((turn, k) => (turn.assert ?? []).map((spec) => ({ spec: spec, turn: k + 1 }))), ...c.assertions.map((spec) => ({ spec }))];
  let assertions: TrialAssertion[] = staticAssertions;
  let caseJudge: ModelRef | Judge | undefined;
  // Judges read inside `check` (`.result()`): each runs once, after the gates recorded before it
  // pass on the run as it is at that moment.
  const early = new Map<RecordedAssertion, { judgment: Promise<Judgment>; result: Promise<AssertionResult> }>();
  const judgeEarly = async (entry: RecordedAssertion, api: ReturnType<typeof createCheckApi>): Promise<Judgment> => {
    const ctxNow: AssertionContext = { ...conversation.context(deps.pricing), ...policy };
    const now = ctxNow.run;
    const before = [...staticAssertions.map((x) => x.spec), ...api.recorded.slice(0, api.recorded.indexOf(entry)).map((x) => x.spec)];
    const spec = entry.spec as JudgeAssertionSpec;
    const judgeCtx = { subject: c, trialIndex: index, run: now, caseJudge: api.caseJudge(), signal: deps.signal, live: true, ...trusted, ...sentAttachments() };
    for (const gate of before.filter((s) => !isJudgeType(s.type) && !isSimilarTo(s))) {
      if (isFailedGate(await deterministicResult(gate, ctxNow, userAssertions, bound))) return notAsked(deps.judges, 'skipped', spec, judgeCtx);
    }
    return deps.judges.judge(spec, { ...judgeCtx, reply: spec.on ?? now.reply });
  };
  const readEarly = (entry: RecordedAssertion, api: ReturnType<typeof createCheckApi>): Promise<AssertionResult> => {
    let read = early.get(entry);
    if (!read) {
      const judgment = judgeEarly(entry, api);
      read = { judgment, result: judgment.then((j) => judgedResult(entry.spec as JudgeAssertionSpec, c.judgeDefaults, j).result) };
      early.set(entry, read);
    }
    return read.result;
  };
  if (c.check) {
    const latest = conversation.turns[conversation.turns.length - 1]!;
    const api: ReturnType<typeof createCheckApi> = createCheckApi({
      input: c.input,
      reference: c.reference,
      run: latest.run,
      turn: conversation.turns.length,
      send: (m) =>
        checkCalls(() => {
          const sent = sentMessage(m, c, conversation.turns.length + 1);
          return conversation.send(sent.text, sent.parts);
        }),
      readJudge: (entry) => checkCalls(() => readEarly(entry, api)),
    });
    // The check is user code under the case's timeoutMs like a custom assertion; its clock stops
    // while it waits on the runner (a turn, a judge), which keep their own bounds.
    let checkDeadline: readonly PausableDeadline[] = [];
    let checkEnded = false;
    async function checkCalls<T>(call: () => Promise<T>): Promise<T> {
      if (checkEnded) throw new Error('check() has already ended (timed out or interrupted)');
      const resume = pauseDeadlines(checkDeadline);
      try {
        return await call();
      } finally {
        resume();
      }
    }
    const settled = await settleUserCode(
      'check()',
      (signal) => {
        checkDeadline = deadlinesOf(signal)?.slice(-1) ?? [];
        return c.check!(api.t);
      },
      bound,
    );
    checkEnded = true;
    await conversation.close();
    if (conversation.failure) return targetFailed();
    run = conversation.run();
    durationMs = conversation.durationMs;
    targetUsage = usageOfRun(run, deps.pricing);
    if ('failure' in settled) return withTurns(failedTrial(index, durationMs, settled.failure, targetUsage, run));
    const invalid = api.recorded.map((r) => TsAssertionSpecSchema.safeParse(r.spec)).find((r) => !r.success);
    if (invalid && !invalid.success) {
      const issue = invalid.error.issues[0]!;
      return withTurns(failedTrial(index, durationMs, `check(): invalid assertion: ${issue.path.join('.')}: ${issue.message}`, targetUsage, run));
    }
    // Found only now (which assertions a check records depends on the run): a trial without
    // any could only pass, so it fails instead.
    if (staticAssertions.length === 0 && api.recorded.length === 0) {
      return failedTrial(index, durationMs, 'check() recorded no assertion (and the case has no "assert"): a trial without assertions could only pass', targetUsage, run);
    }
    // Single-turn trials keep their assertions unmarked; in a conversation each checks its turn.
    const multiTurn = conversation.turns.length > 1;
    assertions = [
      ...staticAssertions,
      ...api.recorded.map((r) => {
        const read = early.get(r);
        return { spec: r.spec, ...(multiTurn ? { turn: r.turn } : {}), ...(read ? { early: read.judgment } : {}) };
      }),
    ];
    caseJudge = api.caseJudge();
  }
  await conversation.close();

  const ctx: AssertionContext = { ...conversation.context(deps.pricing), ...policy };
  const turnContexts = new Map<number, AssertionContext>();
  const graded = await gradeAssertions(assertions, {
    // Turn assertions check their turn's reply, tool calls, timing and usage; the rest the whole run.
    contextOf: (turn) => {
      if (turn === undefined) return ctx;
      if (!turnContexts.has(turn)) turnContexts.set(turn, { ...conversation.turnContext(turn, deps.pricing), ...policy });
      return turnContexts.get(turn)!;
    },
    judges: deps.judges,
    userAssertions,
    bound,
    skipJudgesOnGateFailure: deps.skipJudgesOnGateFailure,
    ...(deps.onJudging ? { beforeJudges: () => deps.onJudging!(targetUsage, run) } : {}),
    judgeContext: {
      subject: c,
      trialIndex: index,
      run,
      caseJudge,
      signal: deps.signal,
      ...trusted,
      ...(conversation.turns.length > 1 || c.simulatedUser ? { transcript: conversation.transcript() } : {}),
      ...(c.simulatedUser ? { untrustedUserTurns: true } : {}),
      ...sentAttachments(),
    },
  });

  const { reply, ...trace } = run;
  return withTurns({
    index,
    verdict: trialVerdict(graded.assertions, false),
    score: trialScore(graded.assertions, false),
    durationMs,
    reply,
    usage: { target: targetUsage, judge: graded.judgeUsage },
    assertions: graded.assertions,
    trace,
  });
}

/** A trial the target or the check ended early: what was spent before it still counts. */
function failedTrial(index: number, durationMs: number, error: string, targetUsage: Usage, run?: AgentRun): TrialResult {
  const { reply = '', ...trace } = run ?? { reply: '' };
  return {
    index,
    verdict: 'failed',
    score: 0,
    durationMs,
    error,
    reply,
    usage: { target: targetUsage, judge: emptyUsage() },
    assertions: [],
    trace,
  };
}
