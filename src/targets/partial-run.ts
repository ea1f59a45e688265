import type { AgentRun } from '../core/agent-run.js';

const PARTIAL = Symbol.for('agent-evals.partialRun');

/**
 * Attaches what a target did before it failed (steps already taken, tokens already paid for) to
 * the error, so a failed trial still reports its usage and trace, and a cost budget still counts it.
 */
export function withPartialRun(err: unknown, run: AgentRun): Error {
  const e = err instanceof Error ? err : new Error(String(err));
  if ((run.steps?.length ?? 0) > 0) Object.defineProperty(e, PARTIAL, { value: run, enumerable: false, configurable: true });
  return e;
}

/** The run a failed target call had made so far, when it said. */
export function partialRunOf(err: unknown): AgentRun | undefined {
  return err instanceof Error ? ((err as unknown as Record<symbol, AgentRun | undefined>)[PARTIAL] ?? undefined) : undefined;
}

/**
 * Until the returned function is called, an abort of `signal` attaches `partial()` to its reason
 * at that very moment. A timeout aborts its signal before it rejects with the same error, so the
 * trial keeps what the target had done even when the target never returns.
 */
export function keepPartialOnAbort(signal: AbortSignal, partial: () => AgentRun): () => void {
  const onAbort = () => {
    if (signal.reason instanceof Error) withPartialRun(signal.reason, partial());
  };
  signal.addEventListener('abort', onAbort, { once: true });
  return () => signal.removeEventListener('abort', onAbort);
}
