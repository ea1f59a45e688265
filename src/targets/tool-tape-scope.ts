import { AsyncLocalStorage } from 'node:async_hooks';
import type { TapedCall, TrialTape } from './tool-tape.js';
import type { TrialInjections } from './tool-injections.js';

/**
 * What answers the tool calls of the trial whose target is running in place of the tools: its tape
 * (`run --replay-tools`) and its case's `toolResults`. An async context, so the tool call sites (the
 * model agent's loop, `ctx.tool`) find it without it threading through every target; a judge's tools
 * run outside it and are never replayed nor injected.
 */
export interface TrialTools {
  tape?: TrialTape;
  injections?: TrialInjections;
}

const current = new AsyncLocalStorage<TrialTools>();

/** Runs a target's call (a trial, or one turn of its conversation) with its trial's tools. */
export function withTrialTools<T>(tools: TrialTools, fn: () => T): T {
  return current.run(tools, fn);
}

/** The running trial's tools, if any (an isolated target hands them to its worker). */
export function currentTrialTools(): TrialTools | undefined {
  return current.getStore();
}

/** A call answered in place of the tool: from the tape, or `injected` from the case's `toolResults`. */
export type StandInCall = TapedCall & { injected?: true };

/**
 * The result that answers this tool call in place of the tool, or undefined when it runs live. An
 * injection wins over the tape, which still counts the call as a step (its later steps stay in line
 * with a recording of the same injected trial) but not as replayed. Under `strict` leaving the tape throws: the trial ends in a
 * target error that says where, and the tool is not run.
 */
export function standInCall(name: string, args: unknown): StandInCall | undefined {
  const tools = current.getStore();
  if (!tools) return undefined;
  const { tape, injections } = tools;
  const injected = injections?.take(name);
  if (injected) {
    tape?.pass(name, args);
    return { name, args, result: injected.result, isError: injected.isError === true, injected: true };
  }
  if (!tape) return undefined;
  const hit = tape.take(name, args);
  if (!hit && tape.strict && tape.diverged) throw new Error(`${tape.diverged.message} (--replay-tools-strict)`);
  return hit;
}
