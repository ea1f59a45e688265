import type { AgentRun } from '../core/agent-run.js';
import type { ChatTurn } from '../core/chat-turn.js';
import type { TargetSession, TrialInput } from './types.js';

/**
 * The conversation before the case's first user message: `trial.messages` ends with the message
 * to answer (the planner puts it there), which a session receives through `send` instead.
 */
export function historyBeforeFirstTurn(trial: TrialInput): ChatTurn[] {
  const last = trial.messages[trial.messages.length - 1];
  return last?.role === 'user' ? trial.messages.slice(0, -1) : [...trial.messages];
}

/** `run` for a target that has sessions: a one-turn conversation, so both paths behave the same. */
export async function runAsOneTurn(open: (trial: TrialInput, signal: AbortSignal) => Promise<TargetSession>, trial: TrialInput, signal: AbortSignal): Promise<AgentRun> {
  const session = await open(trial, signal);
  try {
    return await session.send(trial.input, signal);
  } finally {
    await session.close().catch(() => {});
  }
}
