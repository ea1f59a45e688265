import { z } from 'zod';
import { totalTokens } from '../core/usage.js';
import { isModelCall, modelCallCount, type AgentRun } from '../core/agent-run.js';
import { assertionObject, defineAssertion } from './define.js';
import { binary, plural } from './format.js';
import type { AssertionContext, CheckOutcome } from './types.js';

/** Resource bounds of a trial: steps, tokens, wall time and cost. Safety invariants, so gates. */

const nonNegative = z.number().nonnegative();

/**
 * A trial whose target recorded nothing (a reply alone: no trajectory, no usage) has unknown tokens
 * and cost, not zero of them: a function target that called a model through a client of its own
 * would otherwise pass any budget; its steps too, for the same reason. Set only by the runner
 * (`ctx.target`). A target that did nothing but reply says so with an empty step list.
 */
function unmeasured(bound: string, ctx: AssertionContext): CheckOutcome | undefined {
  if (!ctx.target || ctx.target.recordedTrajectory) return undefined;
  if ([ctx.run, ...(ctx.turns ?? [])].some(recordedUsage)) return undefined;
  return {
    score: 0,
    message: `${bound}: unknown: target "${ctx.target.name}" recorded no model call and no usage (a function target records them through ctx.openai(), ctx.anthropic(), ctx.fetch or ctx.usage, or returns { reply, usage })`,
  };
}

function recordedUsage(run: AgentRun): boolean {
  return run.usage !== undefined || (run.steps ?? []).some(isModelCall);
}

export const maxSteps = defineAssertion(assertionObject('maxSteps', { max: z.number().int().nonnegative() }), (spec, ctx) => {
  const unknown = unmeasured(`maxSteps ${spec.max}`, ctx);
  if (unknown) return unknown;
  // Model calls, the same for every kind of target: a tool run is part of the step that asked for it.
  const n = modelCallCount(ctx.run);
  return { score: binary(n <= spec.max), message: `maxSteps ${spec.max}: ${plural(n, 'step')}` };
});

export const maxTokens = defineAssertion(assertionObject('maxTokens', { max: z.number().int().nonnegative() }), (spec, ctx) => {
  const unknown = unmeasured(`maxTokens ${spec.max}`, ctx);
  if (unknown) return unknown;
  const n = totalTokens(ctx.usage);
  return {
    score: binary(n <= spec.max),
    message: `maxTokens ${spec.max}: ${plural(n, 'token')} (${ctx.usage.inputTokens} input + ${ctx.usage.outputTokens} output)`,
  };
});

export const maxLatencyMs = defineAssertion(assertionObject('maxLatencyMs', { max: nonNegative }), (spec, ctx) => ({
  score: binary(ctx.durationMs <= spec.max),
  message: `maxLatencyMs ${spec.max}: took ${Number.isInteger(ctx.durationMs) ? ctx.durationMs : ctx.durationMs.toFixed(1)} ms`,
}));

/** An unknown cost fails: treating it as 0 would let an unpriced model pass any budget. */
export const maxCostUsd = defineAssertion(assertionObject('maxCostUsd', { max: nonNegative }), (spec, ctx) => {
  const unknown = unmeasured(`maxCostUsd ${spec.max}`, ctx);
  if (unknown) return unknown;
  const cost = ctx.usage.costUsd;
  if (cost === null) {
    const model = ctx.run.model === undefined ? 'the model' : `model ${ctx.run.model}`;
    return { score: 0, message: `maxCostUsd ${spec.max}: cost unknown (${model} has no known price)` };
  }
  return { score: binary(cost <= spec.max), message: `maxCostUsd ${spec.max}: cost $${formatUsd(cost, spec.max)}` };
});

/** Four significant digits, unless rounding would make a cost over budget print as within it. */
function formatUsd(usd: number, max: number): string {
  const rounded = Number(usd.toPrecision(4));
  return usd > max && rounded <= max ? String(usd) : String(rounded);
}

export const boundsAssertions = [maxSteps, maxTokens, maxLatencyMs, maxCostUsd] as const;
