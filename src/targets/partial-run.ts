import type { AgentRun } from '../core/agent-run.js';
import { AgentEvalsError, withSpent, asError } from '../core/errors.js';

/**
 * Attaches what a target did before it failed (steps already taken, tokens already paid for) to
 * the error as its `spent` run, so a failed trial still reports its usage and trace, and a cost
 * budget still counts it. A run without steps has spent nothing worth keeping.
 */
export function withPartialRun(err: unknown, run: AgentRun): Error {
  if ((run.steps?.length ?? 0) > 0) return withSpent(err, { run });
  return asError(err);
}

/**
 * Until the returned function is called, an abort of `signal` attaches `partial()` to its reason
 * at that very moment. A timeout aborts its signal before it rejects with the same error, so the
 * trial keeps what the target had done even when the target never returns.
 */
export function keepPartialOnAbort(signal: AbortSignal, partial: () => AgentRun): () => void {
  const onAbort = () => {
    // Only our own deadline errors are marked in place; the rejection carries that same object.
    if (signal.reason instanceof AgentEvalsError) withPartialRun(signal.reason, partial());
  };
  signal.addEventListener('abort', onAbort, { once: true });
  return () => signal.removeEventListener('abort', onAbort);
}
