import type { AgentRun } from '../core/agent-run.js';
import type { JudgeAssertionSpec, ModelRef } from './spec.js';
import type { Judge } from '../core/judge-port.js';
import type { ChatTurn } from '../core/chat-turn.js';
import type { MediaPart } from '../core/content-parts.js';
import type { JudgeSubject } from '../core/judge-subject.js';
import type { JudgeFingerprint } from '../core/results-schema.js';
import type { Judgment } from './judgment.js';
import type { SimilarToGrader } from './similar-to-service.js';

/** What a judged assertion is graded against. */
export interface JudgeTrialContext {
  /** The case being judged (a planned case is one). */
  subject: JudgeSubject<ModelRef>;
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
  /** Images and files a TS check's `t.send()` sent: shown to the judge after the case's own. */
  sentAttachments?: readonly MediaPart[];
  /** The transcript's user turns were written by a user model (a simulated user): untrusted, like the replies. */
  untrustedUserTurns?: boolean;
  /** Read inside `check` (`.result()`): the check waits on the answer, so it is asked live even with `--judge-batch`. */
  live?: boolean;
}

/** The runner's only view of judges: judge one judged assertion of one trial. */
export interface JudgeService {
  judge(spec: JudgeAssertionSpec, ctx: JudgeTrialContext): Promise<Judgment>;
  /** The fingerprint the assertion's judge would give it, without asking (an assertion not asked still records it); undefined when the judge is not known. */
  identify?(spec: JudgeAssertionSpec, ctx: Omit<JudgeTrialContext, 'reply'>): JudgeFingerprint | undefined;
  /** Grades a `similarTo` assertion by embeddings (similar-to-service.ts): graded with the judges, spending judge usage. */
  similarTo?: SimilarToGrader;
}

/** A judged assertion not asked: its fingerprint still, when the service knows the judge. */
export function notAsked(judges: JudgeService, kind: 'skipped' | 'empty-reply', spec: JudgeAssertionSpec, ctx: Omit<JudgeTrialContext, 'reply'>): Judgment {
  const fingerprint = judges.identify?.(spec, ctx);
  const judgment: Judgment = kind === 'skipped' ? { kind: 'skipped', skipped: 'gate-failed' } : { kind: 'empty-reply' };
  // The judgment was just built: it takes the field itself (V8 builds `{ ...judgment, fingerprint }` many times slower).
  return fingerprint ? Object.assign(judgment, { fingerprint }) : judgment;
}

/**
 * An empty reply fails its judged assertions without a judge call (an empty response never costs
 * judge tokens); `judgeEmptyReplies: true` in the config turns this off.
 */
export function skipEmptyReplies(inner: JudgeService): JudgeService {
  return {
    judge: (spec, ctx) => (ctx.reply.trim() === '' ? Promise.resolve(notAsked(inner, 'empty-reply', spec, ctx)) : inner.judge(spec, ctx)),
    ...(inner.identify ? { identify: inner.identify.bind(inner) } : {}),
    ...(inner.similarTo ? { similarTo: inner.similarTo } : {}),
  };
}

/** No judge anywhere in the resolution order. */
export const noJudgeService: JudgeService = {
  async judge() {
    return { kind: 'no-judge' };
  },
};
