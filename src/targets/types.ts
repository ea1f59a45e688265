import type { AgentRun } from '../core/agent-run.js';
import type { MessageTurn } from '../core/chat-turn.js';
import type { InputPart } from '../core/content-parts.js';

/** What a target receives for one trial; a command target reads exactly this as JSON on stdin. */
export interface TrialInput {
  suite: string;
  id: string;
  trial: number;
  input: string;
  /** The input's content parts, when the case gave them (images and files inline, base64); `input` is their text. */
  parts?: readonly InputPart[];
  /** The history ending with the user message to answer; a user message given as parts keeps them. */
  messages: MessageTurn[];
}

/**
 * One conversation with a target (a multi-turn trial). It starts with the case's history before
 * its first user message (`trial.messages` without that final user turn); the runner then sends
 * the first message and every follow-up with `send`.
 */
export interface TargetSession {
  /**
   * One user turn; resolves to what the target did in that turn only (its steps, usage, reply).
   * `parts`: the turn's content parts when it was given as parts (`message` is then their text).
   */
  send(message: string, signal: AbortSignal, parts?: readonly InputPart[]): Promise<AgentRun>;
  /** Releases the conversation; called once, after the last turn, even when a turn failed. */
  close(): Promise<void>;
}

/** A target adapter: every call is a fresh invocation (a trial never sees another's state). */
export interface Target {
  readonly name: string;
  /** `provider:model` when the target is a model: a `--max-cost` run checks up front that it has a price. */
  readonly model?: string;
  /**
   * Instructions from the config (a model agent's `instructions` / `instructionsFile`): the only
   * ones a judge trusts. What a target reports in `AgentRun.instructions` is its own text.
   */
  readonly instructions?: string;
  run(trial: TrialInput, signal: AbortSignal): Promise<AgentRun>;
  /**
   * How a run of this target comes to record its tool calls, said when a trajectory assertion finds it
   * recorded none (default: the instrumentation of a live target, ctx.fetch, ctx.tool, an adapter).
   */
  readonly untracedHint?: string;
  /**
   * How long the run it just returned took, when the target knows better than the clock: a replay of
   * a recorded trial (`agent-evals rejudge`) gives the recorded time, so latency gates judge the agent.
   */
  recordedDurationMs?(run: AgentRun): number | undefined;
  /** Present when the target can hold a conversation: multi-turn cases need it. */
  openSession?(trial: TrialInput, signal: AbortSignal): Promise<TargetSession>;
}
