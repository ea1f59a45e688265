import { AsyncLocalStorage } from 'node:async_hooks';
import type { TapedCall, TrialTape } from './tool-tape.js';

/**
 * The tape of the trial whose target is running (`run --replay-tools`). An async context, so the
 * tool call sites (the model agent's loop, `ctx.tool`) find it without it threading through every
 * target; a judge's tools run outside it and are never replayed.
 */
const current = new AsyncLocalStorage<TrialTape>();

/** Runs a target's call (a trial, or one turn of its conversation) with its trial's tape. */
export function withTrialTape<T>(tape: TrialTape, fn: () => T): T {
  return current.run(tape, fn);
}

/** The running trial's tape, if any (an isolated target hands it to its worker). */
export function currentTrialTape(): TrialTape | undefined {
  return current.getStore();
}

/**
 * The recorded call that answers this tool call in place of the tool, or undefined when it runs
 * live (no tape, or the trial left it). Under `strict` leaving the tape throws: the trial ends in a
 * target error that says where, and the tool is not run.
 */
export function replayedCall(name: string, args: unknown): TapedCall | undefined {
  const tape = current.getStore();
  if (!tape) return undefined;
  const hit = tape.take(name, args);
  if (!hit && tape.strict && tape.diverged) throw new Error(`${tape.diverged.message} (--replay-tools-strict)`);
  return hit;
}
