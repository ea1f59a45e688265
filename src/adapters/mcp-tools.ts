/**
 * MCP tools in a framework's result: the AI SDK's and Mastra's results do not say which tools came
 * from an MCP server, so the user names the servers and their tool sets, and each call of one of those
 * tools is recorded with `server`.
 */
import type { ToolCall } from '../core/agent-run.js';

/**
 * Each MCP server's name and the tools its client gave: the tool set (an object keyed by tool name,
 * e.g. `await client.tools()`) or the tool names. Only the names are read.
 */
export type McpToolSets = Record<string, Readonly<Record<string, unknown>> | readonly string[]>;

/**
 * Tool name -> server name. `separator` also maps `server<separator>tool`, the name a client that
 * prefixes its tools offers them under (Mastra's `listTools()`: `memory_create_entities`).
 */
export function mcpServerOfTool(sets: McpToolSets, separator?: string): Map<string, string> {
  const byTool = new Map<string, string>();
  for (const [server, tools] of Object.entries(sets)) {
    for (const name of Array.isArray(tools) ? (tools as readonly string[]) : Object.keys(tools)) {
      byTool.set(name, server);
      if (separator !== undefined) byTool.set(`${server}${separator}${name}`, server);
    }
  }
  return byTool;
}

/**
 * A call with its MCP server named (unchanged when the tool is not an MCP tool). A tool's failure that
 * the MCP client hands back as the server's result (`isError: true`) rather than throwing is an error.
 */
export function withMcpServer(call: ToolCall, servers: ReadonlyMap<string, string>): ToolCall {
  const server = servers.get(call.name);
  if (server === undefined) return call;
  const failed = call.isError !== true && (call.result as { isError?: unknown } | null | undefined)?.isError === true;
  return { ...call, ...(failed ? { isError: true } : {}), server };
}
