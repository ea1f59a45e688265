import { z } from 'zod';
import { toolCallsOf, type AgentRun } from '../core/agent-run.js';
import { safeJson } from '../core/safe-json.js';

/**
 * The retrieved context of a grounded-answer criterion: `{ tool: search }` (every result of that
 * tool's calls in the trial, in call order), or the text itself (one passage or a list).
 */
export const groundingContextSchema = z.union([z.string().min(1), z.array(z.string().min(1)).min(1), z.object({ tool: z.string().min(1) }).strict()]);
export type GroundingContext = z.infer<typeof groundingContextSchema>;

/**
 * The passages for a trial. A tool's results are shown in clear whatever the trace policy: naming
 * the tool is asking the judge to read them. A result that is not text is shown as JSON; a call
 * without a result adds nothing.
 */
export function groundingPassages(context: GroundingContext, run: AgentRun): string[] {
  if (typeof context === 'string') return [context];
  if (Array.isArray(context)) return [...context];
  return toolCallsOf(run)
    .filter((c) => c.name === context.tool && c.result !== undefined)
    .map((c) => (typeof c.result === 'string' ? c.result : (safeJson(c.result) ?? '')));
}
