import { AgentRunSchema, type AgentRun } from '../core/agent-run.js';

/**
 * The AgentRun a function target returned, or an error naming the target and the fields that are
 * wrong: returning a framework's own result (`generateText`'s, with `text` and no `reply`) is the
 * usual slip, and zod's issue list as JSON did not say so.
 */
export function returnedRun(name: string, value: object): AgentRun {
  const parsed = AgentRunSchema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issues = parsed.error.issues.slice(0, 3).map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`);
  const more = parsed.error.issues.length > 3 ? `; and ${parsed.error.issues.length - 3} more` : '';
  throw new Error(
    `target "${name}" returned an object that is not an AgentRun (${issues.join('; ')}${more}); return a string, { reply, steps?, usage?, ... }, or a framework's result through its adapter (e.g. fromAISDK(result))`,
  );
}
