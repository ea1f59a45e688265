import type { AgentRun } from '../core/agent-run.js';
import type { JudgeAssertionSpec, ModelRef } from '../judges/spec.js';
import type { Judge, JudgeScore } from '../core/judge-port.js';
import type { JudgeError } from '../core/errors.js';
import type { ChatTurn } from '../core/chat-turn.js';
import type { PlannedCase } from '../suite/plan.js';

/** What a judged assertion is graded against. */
export interface JudgeTrialContext {
  plannedCase: PlannedCase;
  trialIndex: number;
  run: AgentRun;
  /** The target's instructions from the config; `run.instructions` of any other target is untrusted. */
  trustedInstructions?: string;
  /** The text under test (the final reply, or a turn's reply). */
  reply: string;
  /** `t.useJudge(...)` of a TS case, above the case's own `judge:`. */
  caseJudge: ModelRef | Judge | undefined;
  signal: AbortSignal;
  /** A multi-turn trial's whole conversation (history, then each user turn and its reply). */
  transcript?: ChatTurn[];
  /** Read inside `check` (`.result()`): the check waits on the answer, so it is asked live even with `--judge-batch`. */
  live?: boolean;
}

/** The judge's provider and model as reported (an agent judge's run names the model that answered). */
export interface JudgeIdentity {
  provider: string;
  model: string;
  /** The judge's persona override, when it has one. */
  system?: string;
  /** The judge's calls went through the provider's batch API. */
  batch?: boolean;
}

/**
 * What judging one assertion came to, before any verdict: a score, a typed failure with what it
 * spent, no judge at all, or not asked because a gate failed. `judgedResult` turns it into the
 * assertion result; pass or fail is decided there, never by a judge.
 */
export type Judgment =
  | { kind: 'scored'; score: JudgeScore; by: JudgeIdentity; positionInconsistent?: boolean }
  | { kind: 'failed'; error: JudgeError; by?: JudgeIdentity }
  | { kind: 'no-judge' }
  | { kind: 'skipped'; skipped: 'gate-failed' }
  | { kind: 'empty-reply' };

/** The runner's only view of judges: judge one judged assertion of one trial. */
export interface JudgeService {
  judge(spec: JudgeAssertionSpec, ctx: JudgeTrialContext): Promise<Judgment>;
}

/**
 * An empty reply fails its judged assertions without a judge call (an empty response never costs
 * judge tokens); `judgeEmptyReplies: true` in the config turns this off.
 */
export function skipEmptyReplies(inner: JudgeService): JudgeService {
  return {
    judge: (spec, ctx) => (ctx.reply.trim() === '' ? Promise.resolve({ kind: 'empty-reply' }) : inner.judge(spec, ctx)),
  };
}

/** No judge anywhere in the resolution order. */
export const noJudgeService: JudgeService = {
  async judge() {
    return { kind: 'no-judge' };
  },
};
