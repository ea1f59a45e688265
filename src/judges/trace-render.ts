import type { AgentRun } from '../core/agent-run.js';
import { conceal as digestOf } from '../core/digest.js';
import type { TracePolicy } from '../core/judge-port.js';
import { safeJson } from '../core/safe-json.js';
import type { TokenUsage } from '../core/usage.js';

export const TRACE_OPEN = '<untrusted-target-trace>';
export const TRACE_CLOSE = '</untrusted-target-trace>';

/** How lean the trace a judge model reads is: what it leaves out beyond the policy's concealment. */
export interface TraceView {
  /** Token usage (the run's and each step's) is shown only when the criterion asks about cost or length. */
  usage: boolean;
  /**
   * Tool timings (`durationMs`) are shown only when the criterion asks about time: they differ on
   * every trial, so otherwise identical trials would make different prompts (and judge calls).
   */
  timings?: boolean;
  /** The graded output: a step text identical to it is not repeated (the block holds it as `output`). */
  output?: string;
}

/**
 * The target's trace as a judge sees it. `safe` (default): tool names, order, error flags, timing
 * and usage in clear; arguments, results and error text only as digests. `full`: everything.
 * With a `view` (the judge prompt's), zero and absent fields are left out too: usage unless asked
 * for (and then only its non-zero counts), tool timings unless asked for, the policy when no tool was called, a `stop` stop
 * reason, `isError: false`, a step text that repeats the graded output, a step left with nothing
 * to show, an empty step list.
 */
export function projectTrace(run: AgentRun, policy: TracePolicy, view?: TraceView): Record<string, unknown> {
  const conceal = (v: unknown) => (v === undefined ? undefined : policy === 'full' ? v : digestOf(v));
  const usageOf = (u: TokenUsage | undefined) => (!u ? {} : !view ? { usage: u } : view.usage ? nonZero(u) : {});
  const steps = (run.steps ?? []).map((s, i) => ({
    step: i + 1,
    // The agent's own step text is in clear: the policy conceals tool data, not what the agent said.
    ...(s.text !== undefined && !(view && (s.text === view.output || s.text === '')) ? { text: s.text } : {}),
    ...(s.toolCalls?.length
      ? {
          toolCalls: s.toolCalls.map((c) => ({
            name: c.name,
            ...(c.isError !== undefined && !(view && !c.isError) ? { isError: c.isError } : {}),
            ...(c.durationMs !== undefined && (!view || view.timings) ? { durationMs: Math.round(c.durationMs) } : {}),
            ...(c.args !== undefined ? { args: conceal(c.args) } : {}),
            ...(c.result !== undefined ? { result: conceal(c.result) } : {}),
          })),
        }
      : {}),
    ...usageOf(s.usage),
  }));
  const shown = view ? steps.filter((s) => Object.keys(s).length > 1) : steps;
  // The policy says how tool data is shown: with no tool call there is nothing it applies to.
  const toolData = !view || steps.some((s) => s.toolCalls);
  // Object.assign, not a literal of spreads: V8 (Node 20) builds the latter many times slower, on every judgment.
  const projected: Record<string, unknown> = {};
  Object.assign(
    projected,
    toolData ? { policy } : {},
    run.model ? { model: run.model } : {},
    // A plain `stop` is the ordinary end: only another reason (length, refusal, ...) tells a judge something.
    run.stopReason && !(view && run.stopReason === 'stop') ? { stopReason: run.stopReason } : {},
    usageOf(run.usage),
    shown.length || !view ? { steps: shown } : {},
  );
  return projected;
}

/** A usage with its zero counts left out; nothing at all when every count is zero. */
function nonZero(u: TokenUsage): { usage?: Partial<TokenUsage> } {
  const kept = Object.fromEntries(Object.entries(u).filter(([, n]) => n !== 0 && n !== undefined));
  return Object.keys(kept).length ? { usage: kept } : {};
}

/**
 * JSON for inside the untrusted block, compact (indentation would only add tokens). Every `<` is
 * written as `\u003c` (still valid JSON, the same string to a reader), so no text from the target
 * can close the block or open a tag.
 */
export function untrustedJson(value: unknown): string {
  return (safeJson(value) ?? 'null').replace(/</g, '\\u003c').replace(/>/g, '\\u003e');
}

/** The delimited block that carries everything the target produced. */
export function untrustedBlock(value: unknown): string {
  return `${TRACE_OPEN}\n${untrustedJson(value)}\n${TRACE_CLOSE}`;
}
