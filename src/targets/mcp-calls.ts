import type { AgentRun, Step, ToolCall } from '../core/agent-run.js';
import { AgentEvalsError } from '../core/errors.js';
import { compileJsonSchema } from '../assertions/json-schema-validator.js';
import type { McpCall } from './mcp-case.js';
import { replyOfResult, type McpToolInfo, type McpToolResult } from './mcp-result.js';
import { withPartialRun } from './partial-run.js';

/**
 * One trial of an `mcp` target: the case's calls made in order on one connection, each recorded as a
 * tool call on the trajectory. The reply is the last call's result. A tool error (an `isError`
 * result, a protocol error such as invalid arguments, a timeout, the server gone) fails the trial
 * unless the call expects one; the trajectory is kept with the failure.
 */

/** What this needs of an MCP connection (mcp-client.ts's `McpConnection` has it). */
export interface McpCaller {
  callTool(
    tool: string,
    args: Record<string, unknown>,
    options?: { signal?: AbortSignal | undefined; timeoutMs?: number | undefined },
  ): Promise<{ ok: true; result: McpToolResult } | { ok: false; error: { message: string; result?: McpToolResult | undefined } }>;
}

export async function runMcpCalls(
  caller: McpCaller,
  tools: ReadonlyMap<string, McpToolInfo>,
  calls: readonly McpCall[],
  options: { signal: AbortSignal; timeoutMs?: number | undefined },
): Promise<AgentRun> {
  const steps: Step[] = [];
  let reply = '';
  for (const [i, call] of calls.entries()) {
    const args = call.arguments ?? {};
    const started = performance.now();
    const outcome = await caller.callTool(call.tool, args, { signal: options.signal, timeoutMs: options.timeoutMs });
    const durationMs = Math.max(0, performance.now() - started);
    const record: ToolCall = outcome.ok
      ? { name: call.tool, args, result: outcome.result.structuredContent ?? replyOfResult(outcome.result), durationMs }
      : { name: call.tool, args, result: outcome.error.message, isError: true, durationMs };
    steps.push({ toolCalls: [record] });
    const run = (): AgentRun => ({ reply: outcome.ok ? replyOfResult(outcome.result) : outcome.error.message, steps });
    const which = calls.length > 1 ? `call ${i + 1} (${call.tool})` : `tool ${call.tool}`;
    if (!outcome.ok && call.expectError !== true) throw withPartialRun(new AgentEvalsError(`${which}: ${outcome.error.message}`), run());
    if (outcome.ok && call.expectError === true) throw withPartialRun(new AgentEvalsError(`${which} was expected to be a tool error, and succeeded`), run());
    if (outcome.ok && call.checkOutputSchema === true) {
      const problem = outputSchemaProblem(tools.get(call.tool), outcome.result);
      if (problem) throw withPartialRun(new AgentEvalsError(`${which}: ${problem}`), run());
    }
    reply = run().reply;
  }
  return { reply, steps };
}

/** Why the result does not match the tool's declared `outputSchema`, if it does not. */
function outputSchemaProblem(tool: McpToolInfo | undefined, result: McpToolResult): string | undefined {
  if (!tool?.outputSchema) return 'checkOutputSchema: the tool declares no outputSchema';
  if (result.structuredContent === undefined) return 'checkOutputSchema: the result has no structured content';
  const compiled = compileJsonSchema(tool.outputSchema);
  if (!compiled.ok) return `checkOutputSchema: the tool's outputSchema is not valid JSON Schema: ${compiled.error}`;
  const issues = compiled.validate(result.structuredContent);
  if (issues.length === 0) return undefined;
  return `checkOutputSchema: the structured content does not match the tool's outputSchema: ${issues.map((e) => `${e.instancePath || '/'} ${e.message ?? ''}`.trim()).join('; ')}`;
}
