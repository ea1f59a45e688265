import { withTimeout } from '../core/timeout.js';
import { AgentEvalsError, TimeoutError } from '../core/errors.js';
import type { Target } from './types.js';

/**
 * A target's own `timeoutMs` (in its config) bounds each invocation: a whole single-turn run, or
 * one turn of a conversation. The case's timeout still applies on top; the shorter one wins.
 */
export function withTargetTimeout(target: Target, timeoutMs: number | undefined): Target {
  if (timeoutMs === undefined) return target;
  const bounded = <T>(work: (signal: AbortSignal) => Promise<T>, outer: AbortSignal) =>
    withTimeout(work, timeoutMs, outer).catch((err: unknown) => {
      if (!(err instanceof TimeoutError && err.ms === timeoutMs)) throw err;
      throw new AgentEvalsError(`${err.message} (the target's timeoutMs)`, err.spent ? { spent: err.spent } : {});
    });
  const openSession = target.openSession?.bind(target);
  return {
    name: target.name,
    ...(target.model !== undefined ? { model: target.model } : {}),
    ...(target.instructions !== undefined ? { instructions: target.instructions } : {}),
    run: (trial, signal) => bounded((s) => target.run(trial, s), signal),
    ...(openSession
      ? {
          async openSession(trial, signal) {
            const session = await bounded((s) => openSession(trial, s), signal);
            return {
              send: (message, turnSignal, parts) => bounded((s) => session.send(message, s, parts), turnSignal),
              close: () => session.close(),
            };
          },
        }
      : {}),
  };
}
