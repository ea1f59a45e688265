import type { McpConnection } from './mcp-client.js';
import { invalidArgumentsFor, staticToolChecks, type CheckStatus, type ToolCheck } from './mcp-tool-checks.js';

/**
 * `agent-evals mcp-check`: a server's tools checked one by one: the static checks of its tool list,
 * then one call with arguments its input schema refuses, which must come back as a tool error (an
 * `isError` result or a JSON-RPC error) within the call's timeout, not a crash or a hang.
 */

export interface ToolReport {
  name: string;
  checks: ToolCheck[];
}

export interface McpCheckReport {
  server: string;
  tools: ToolReport[];
  /** Checks failed, over every tool. */
  failed: number;
  warnings: number;
}

export async function checkMcpServer(connection: Pick<McpConnection, 'listTools' | 'callTool'>, server: string, timeoutMs: number): Promise<McpCheckReport> {
  const tools = await connection.listTools();
  const reports: ToolReport[] = [];
  // One call at a time: a server that serves one request at a time is not misjudged as hanging.
  for (const tool of tools) {
    const checks = staticToolChecks(tool, server);
    checks.push(await invalidCallCheck(connection, tool.name, tool.inputSchema, timeoutMs));
    reports.push({ name: tool.name, checks });
  }
  const count = (status: CheckStatus) => reports.reduce((n, r) => n + r.checks.filter((c) => c.status === status).length, 0);
  return { server, tools: reports, failed: count('fail'), warnings: count('warn') };
}

async function invalidCallCheck(connection: Pick<McpConnection, 'callTool'>, tool: string, schema: Record<string, unknown>, timeoutMs: number): Promise<ToolCheck> {
  const check = 'invalid arguments';
  const args = invalidArgumentsFor(schema);
  if (!args) return { check, status: 'skip', detail: 'its input schema accepts every object' };
  const outcome = await connection.callTool(tool, args, { timeoutMs });
  const sent = JSON.stringify(args);
  if (outcome.ok) return { check, status: 'fail', detail: `${sent} was accepted (no isError result, no error): the tool does not check its arguments` };
  const { cause, message } = outcome.error;
  if (cause === 'tool-error' || cause === 'protocol') return { check, status: 'pass', detail: `${sent} → a tool error` };
  return { check, status: 'fail', detail: `${sent} → ${cause === 'timeout' ? 'no answer' : cause === 'connection' ? 'the server failed' : 'an oversized answer'}: ${message}` };
}
