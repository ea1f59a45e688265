import type { ToolCall } from './agent-run.js';
import type { CaseResult, TrialResult } from './results-schema.js';
import { conceal } from './digest.js';

/** A tool call with its arguments and result (an error's text included) as digests. */
export function digestToolCall(call: ToolCall): ToolCall {
  return {
    ...call,
    ...(call.args !== undefined ? { args: conceal(call.args) } : {}),
    ...(call.result !== undefined ? { result: conceal(call.result) } : {}),
  };
}

/**
 * A trial as a shareable artifact holds it under the `safe` policy: the tool calls of its trace and
 * of its turns digested. The agent's own text (reply, step text, turn replies) is not tool data and
 * stays; so do names, order, error flags, timings and usage.
 */
export function digestTrial(trial: TrialResult): TrialResult {
  const steps = trial.trace.steps?.map((s) => (s.toolCalls ? { ...s, toolCalls: s.toolCalls.map(digestToolCall) } : s));
  return {
    ...trial,
    trace: { ...trial.trace, ...(steps ? { steps } : {}) },
    ...(trial.turns ? { turns: trial.turns.map((t) => ({ ...t, toolCalls: t.toolCalls.map(digestToolCall) })) } : {}),
  };
}

/** A case with every trial digested (`digestOne` may remember trials it digested already). */
export function digestCase(result: CaseResult, digestOne: (t: TrialResult) => TrialResult = digestTrial): CaseResult {
  return { ...result, trials: result.trials.map(digestOne) };
}
