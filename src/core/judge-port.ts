import { z } from 'zod';
import type { AgentRun } from './agent-run.js';
import type { Usage } from './usage.js';
import type { ChatTurn } from './chat-turn.js';

/** What a judge sees of the target's tool data: digests (`safe`) or in clear (`full`). */
export const TracePolicySchema = z.enum(['safe', 'full']);
export type TracePolicy = z.infer<typeof TracePolicySchema>;

/** What is being judged, resolved from an assertion spec. */
export type Criterion =
  | {
      kind: 'rubric';
      criteria: string;
      /** `judgeAgainst`: the expected answer. */
      reference?: string;
      /** A plain `judge`: the case's reference, shown as context only. */
      caseReference?: string;
      scale: 1 | 10;
      dimensions: string[];
      choices?: Record<string, number>;
    }
  | { kind: 'summarizes'; source: string; scale: 1 | 10; dimensions: string[] }
  | { kind: 'factuality'; reference: string }
  | { kind: 'closedQa'; question: string }
  | { kind: 'sql'; reference: string }
  | { kind: 'pairwise'; criteria: string; first: string; second: string; actualPosition?: 'A' | 'B' }
  /** Grounded answers: `context` is the retrieved text (a named tool's results in the trial, or given in the file), shown as untrusted data. */
  | { kind: 'faithfulness'; context: string[] }
  | { kind: 'contextRelevance'; context: string[] }
  | { kind: 'answerRelevance' };

/**
 * One judgment to make. The target run is required: a judge always sees how the output was
 * produced (under the trace policy), so a request without one cannot be built.
 */
export interface JudgeRequest {
  criterion: Criterion;
  /** The graded text: the reply, or what `.on(text)` named. */
  output: string;
  input: string;
  /** The whole conversation when the case had history or turns. */
  transcript?: readonly ChatTurn[];
  /** The transcript's user turns came from a user model (a simulated user): shown only inside the untrusted block. */
  untrustedUserTurns?: boolean;
  /** The target's instructions from the config (trusted), unless the assertion opted out. */
  instructions?: string;
  /** Instructions the target reported itself: shown inside the untrusted block, like its reply. */
  reportedInstructions?: string;
  run: AgentRun;
  tracePolicy: TracePolicy;
  temperature?: number;
  /** Aborts the judgment when the run is stopped. */
  signal?: AbortSignal;
  /** Which case and assertion asks: fake-judge fixtures match on it; never shown to a model. */
  subject?: { case: string; assertion: string; type: string };
}

export interface JudgeScore {
  /** Normalised to [0, 1]. */
  score: number;
  reason: string;
  evidence: string[];
  dimensions?: Record<string, number>;
  /** The raw choice of a choice-based criterion (factuality, closedQa, sql, pairwise, a rubric with `choices`). */
  choice?: string;
  /** The judge's raw answer text. */
  raw?: string;
  usage: Usage;
  /** Answered from the cache: `usage` is zero and `savedTokens` what the call would have used. */
  cached?: boolean;
  savedTokens?: number;
  /** The agent-loop judge's own run. */
  run?: AgentRun;
}

/** Both adapters (single inference, agent loop) implement this. */
export interface Judge {
  readonly provider: string;
  readonly model: string;
  /** The persona (`system`) replacing the built-in first line of the judge's system prompt; recorded in the results. */
  readonly system?: string;
  /** Its calls go through the provider's batch API (`--judge-batch`); recorded in the results. */
  readonly batch?: boolean;
  /** What its calls are made with beyond provider and model (capabilities, sampling); part of its fingerprint. */
  readonly calledWith?: Readonly<Record<string, string | number | boolean | null>>;
  /** An agent judge's tools, by name; part of its fingerprint. */
  readonly tools?: readonly string[];
  judge(request: JudgeRequest): Promise<JudgeScore>;
}

export function buildJudgeRequest(parts: Omit<JudgeRequest, 'run'> & { run: AgentRun | undefined }): JudgeRequest {
  if (!parts.run) throw new Error('a judge request needs the target run');
  return parts as JudgeRequest;
}
