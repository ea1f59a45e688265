import { z } from 'zod';
import { lazySchema } from './lazy-schema.js';
import { TokenUsageSchema } from './usage.js';

/** One tool call an agent made: what a judge and the trajectory assertions read. */
// Built on first use (lazy-schema.ts): `list` and other commands that run no target never build these.
export const ToolCallSchema = lazySchema(() =>
  z
    .object({
      name: z.string().min(1),
      args: z.unknown().optional(),
      result: z.unknown().optional(),
      isError: z.boolean().optional(),
      /** The MCP server the tool came from, by the name the agent's config gave it; absent for a local tool. */
      server: z.string().min(1).optional(),
      durationMs: z.number().nonnegative().optional(),
      /** The result came from the case's `toolResults`: the tool did not run. */
      injected: z.boolean().optional(),
    })
    .strict(),
);
export type ToolCall = z.infer<typeof ToolCallSchema>;

export const StepSchema = lazySchema(() =>
  z
    .object({
      text: z.string().optional(),
      toolCalls: z.array(ToolCallSchema).optional(),
      usage: TokenUsageSchema.optional(),
      /** The model that produced this step, `provider:model`; prices its usage. */
      model: z.string().optional(),
      /**
       * The model refused in this step (OpenAI `refusal` or content filter, Anthropic `refusal` stop):
       * its refusal message, or empty when it gave none. A refusal mid-conversation stays on its step.
       */
      refusal: z.string().optional(),
      /**
       * A model call still waiting for its answer when the trial ended (timeout, interrupt): it was
       * sent and may be billed, but its tokens are unknown, so its cost is unknown (null), never 0.
       */
      usageUnknown: z.literal(true).optional(),
    })
    .strict(),
);
export type Step = z.infer<typeof StepSchema>;

/**
 * What a target produces for one trial: what a function target may return and what a
 * command or HTTP target prints as JSON. When steps carry usage, each is one model call and their
 * sum is the run's usage; otherwise `usage` is the whole run's, counted as one call.
 */
export const AgentRunSchema = lazySchema(() =>
  z
    .object({
      reply: z.string(),
      steps: z.array(StepSchema).optional(),
      usage: TokenUsageSchema.optional(),
      model: z.string().optional(),
      instructions: z.string().optional(),
      stopReason: z.string().optional(),
      /**
       * Each tool the model was offered, by name: a digest of its definition as the model saw it (name,
       * description, input schema, output schema if any), never the definition itself. The model-agent
       * target records it; a baseline comparison reads it to tell `tools changed`.
       */
      toolDigests: z.record(z.string(), z.string()).optional(),
    })
    .strict(),
);
export type AgentRun = z.infer<typeof AgentRunSchema>;

/** Every tool call of a run, in the order they were made. */
export function toolCallsOf(run: AgentRun): ToolCall[] {
  return (run.steps ?? []).flatMap((s) => s.toolCalls ?? []);
}

/** A step that stands for one model call: it carries that call's usage (or says it is unknown). */
export function isModelCall(step: Step): boolean {
  return step.usage !== undefined || step.usageUnknown === true;
}

/**
 * The model calls of a run, what `maxSteps` bounds. When steps carry usage, each such step is one
 * call and steps without usage (a tool run, a note) are not; a run whose steps carry no usage at
 * all (a command or HTTP target reporting only its trajectory) counts each step as one call.
 */
export function modelCallCount(run: AgentRun): number {
  const steps = run.steps ?? [];
  const calls = steps.filter(isModelCall).length;
  return calls > 0 ? calls : steps.length;
}
