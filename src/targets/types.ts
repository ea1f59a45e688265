import type { AgentRun } from '../trace/agent-run.js';

export interface ChatTurn {
  role: 'user' | 'assistant' | 'system';
  content: string;
}

/** What a target receives for one trial; a command target reads exactly this as JSON on stdin. */
export interface TrialInput {
  suite: string;
  id: string;
  trial: number;
  input: string;
  messages: ChatTurn[];
}

/** A target adapter: every call is a fresh invocation (a trial never sees another's state). */
export interface Target {
  readonly name: string;
  /** `provider:model` when the target is a model (used to warn when a judge grades its own model). */
  readonly model?: string;
  run(trial: TrialInput, signal: AbortSignal): Promise<AgentRun>;
}
