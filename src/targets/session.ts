import type { AgentRun } from '../core/agent-run.js';
import type { MessageTurn } from '../core/chat-turn.js';
import type { InputPart } from '../core/content-parts.js';
import type { TargetSession, TrialInput } from './types.js';

/**
 * The conversation before the case's first user message: `trial.messages` ends with the message
 * to answer (the planner puts it there), which a session receives through `send` instead.
 */
export function historyBeforeFirstTurn(trial: TrialInput): MessageTurn[] {
  const last = trial.messages[trial.messages.length - 1];
  return last?.role === 'user' ? trial.messages.slice(0, -1) : [...trial.messages];
}

/** `run` for a target that has sessions: a one-turn conversation, so both paths behave the same. */
export async function runAsOneTurn(open: (trial: TrialInput, signal: AbortSignal) => Promise<TargetSession>, trial: TrialInput, signal: AbortSignal): Promise<AgentRun> {
  const session = await open(trial, signal);
  try {
    return await session.send(trial.input, signal, trial.parts);
  } finally {
    await session.close().catch(() => {});
  }
}

/**
 * What a function target is called with for one user turn: the trial with this turn's message and
 * parts (an earlier turn's parts are not this turn's), the history so far ending with it.
 */
export function turnTrial(trial: TrialInput, history: MessageTurn[], message: string, parts: readonly InputPart[] | undefined): TrialInput {
  history.push({ role: 'user', content: message, ...(parts ? { parts } : {}) });
  const { parts: _first, ...rest } = trial;
  return { ...rest, input: message, ...(parts ? { parts } : {}), messages: [...history] };
}
