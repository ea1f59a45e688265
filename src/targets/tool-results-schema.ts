import { z } from 'zod';
import { lazySchema, once } from '../core/lazy-schema.js';

/**
 * A case's `toolResults`: results served in place of running a tool (an injected instruction, a
 * fixture). The `call`-th call of `tool` in the trial, counted over every turn of a conversation, gets
 * `result` (as the tool's return value; `isError`: as its error) and the tool does not run.
 */
export const toolResultsSchema = once(() =>
  z
    .array(
      z
        .object({
          /** The tool's name as the agent calls it. */
          tool: z.string().min(1),
          /** Which call of the tool in the trial (1: its first), counted over every turn. */
          call: z.number().int().positive().optional(),
          /** What that call gets back: a string, or any JSON value. */
          result: z.unknown().nonoptional('a toolResults entry needs "result": what the call gets back in place of the tool'),
          /** Served as the tool's error (the model sees an error result; `ctx.tool` throws it). */
          isError: z.boolean().optional(),
        })
        .strict(),
    )
    .min(1)
    .superRefine((entries, ctx) => {
      const seen = new Set<string>();
      entries.forEach((e, i) => {
        const key = `${e.tool}\u0000${e.call ?? 1}`;
        if (seen.has(key)) ctx.addIssue({ code: 'custom', message: `${e.tool} call ${e.call ?? 1} is given twice`, path: [i, 'call'] });
        seen.add(key);
      });
    })
    .meta({ id: 'ToolResults', description: 'Results served in place of tools: the `call`-th call (default 1) of `tool` in the trial gets `result`, and the tool does not run.' }),
);
export const ToolResultsSchema = lazySchema(toolResultsSchema);
export type ToolResultInjection = z.infer<typeof ToolResultsSchema>[number];
