import type { AgentRun } from '../core/agent-run.js';
import type { Usage } from '../core/usage.js';
import type { JudgeAssertionSpec, ModelRef } from '../judges/spec.js';
import type { Judge } from '../core/judge-port.js';
import type { ChatTurn } from '../core/chat-turn.js';
import type { AssertionResult } from '../core/results-schema.js';
import type { PlannedCase } from '../suite/plan.js';
import { emptyUsage } from '../core/usage.js';
import { assertionName } from '../assertions/assertion-name.js';
import { thresholdOf } from '../judges/criterion-from-spec.js';

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
}

/** The runner's only view of judges: grade one judged assertion of one trial. */
export interface JudgeService {
  grade(spec: JudgeAssertionSpec, ctx: JudgeTrialContext): Promise<{ result: AssertionResult; usage: Usage }>;
}

/** No judge anywhere in the resolution order: a judged assertion cannot pass, so it is a gate. */
export const noJudgeService: JudgeService = {
  async grade(spec, ctx) {
    return {
      result: {
        name: assertionName(spec),
        kind: spec.type,
        severity: 'gate',
        status: 'failed',
        score: 0,
        threshold: thresholdOf(spec, ctx.plannedCase.judgeDefaults),
        weight: spec.weight ?? 1,
        message: 'No judge configured.',
      },
      usage: emptyUsage(),
    };
  },
};
