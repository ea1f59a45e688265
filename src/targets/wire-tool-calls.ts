import type { Step, ToolCall } from '../core/agent-run.js';
import { deepEqual } from '../assertions/json-value.js';
import type { WireToolCall, WireToolResult } from './tool-calls-from-body.js';

/**
 * The tool calls read off one target call's model responses, joined with their results by the
 * wire's call id. Calls come only from responses, so a call id that a later request's history
 * repeats is never a new call; a result sent again in a later request is the same result (the
 * first is kept). A result may be read before its call (the request that carries it can be sent
 * before the response's copy is read to its end): it waits for the call. A call no later request
 * answers keeps no result.
 */
export class WireToolCalls {
  readonly #calls = new Map<string, ToolCall>();
  readonly #results = new Map<string, WireToolResult>();
  readonly #read = new WeakSet<ToolCall>();

  /** A response's calls as trial tool calls: each id once, joined with its result if already sent. */
  add(found: readonly WireToolCall[]): ToolCall[] {
    const calls: ToolCall[] = [];
    for (const f of found) {
      if (f.id !== undefined && this.#calls.has(f.id)) continue;
      const call: ToolCall = { name: f.name, ...(f.args !== undefined ? { args: f.args } : {}) };
      if (f.id !== undefined) {
        this.#calls.set(f.id, call);
        const result = this.#results.get(f.id);
        if (result) answer(call, result);
      }
      this.#read.add(call);
      calls.push(call);
    }
    return calls;
  }

  /** The results a request sends back. */
  answer(found: readonly WireToolResult[]): void {
    for (const r of found) {
      if (this.#results.has(r.id)) continue;
      this.#results.set(r.id, r);
      const call = this.#calls.get(r.id);
      if (call) answer(call, r);
    }
  }

  /** Whether this call was read off the wire (rather than reported by the target itself). */
  has(call: ToolCall): boolean {
    return this.#read.has(call);
  }
}

function answer(call: ToolCall, r: WireToolResult): void {
  call.result = r.result;
  call.isError = r.isError;
}

/**
 * The steps without the calls read off the wire that the target also reported itself (`ctx.tool`,
 * or `returned`: the steps of the run it returned, e.g. through an adapter): the same name and args
 * make the same call, each matched once in order, and the target's own record (its result as a
 * value, its duration) is the one kept.
 */
export function withoutReportedCalls(steps: readonly Step[], returned: readonly ToolCall[], wire: WireToolCalls): Step[] {
  const calls = steps.flatMap((s) => s.toolCalls ?? []);
  const reported = [...calls.filter((c) => !wire.has(c)), ...returned];
  const dropped = new Set<ToolCall>();
  for (const own of reported) {
    const same = calls.find((c) => wire.has(c) && !dropped.has(c) && c.name === own.name && deepEqual(c.args, own.args));
    if (same) dropped.add(same);
  }
  if (dropped.size === 0) return [...steps];
  return steps.flatMap((step): Step[] => {
    if (!step.toolCalls?.some((c) => dropped.has(c))) return [step];
    const { toolCalls, ...rest } = step;
    const kept = toolCalls.filter((c) => !dropped.has(c));
    if (kept.length > 0) return [{ ...rest, toolCalls: kept }];
    // A step that held only those calls (a streamed reply without usage) goes with them.
    return Object.keys(rest).length > 0 ? [rest] : [];
  });
}
