import { UserError } from '../core/errors.js';
import type { McpServerConfig } from './mcp-server-schema.js';

/**
 * The server an `mcp` target (or `mcp-check`) means: given in full, or by the name of one in the
 * config's `mcpServers`. Its name is what errors and tool listings say: the config's name, or the
 * target's for a server given in full.
 */
export function resolveMcpServer(
  given: McpServerConfig | string,
  fallbackName: string,
  mcpServers: Readonly<Record<string, McpServerConfig>> | undefined,
  where: { file?: string; field?: string },
): { name: string; server: McpServerConfig } {
  if (typeof given !== 'string') return { name: fallbackName, server: given };
  const server = mcpServers?.[given];
  if (server) return { name: given, server };
  const known = Object.keys(mcpServers ?? {});
  throw new UserError(`no MCP server "${given}" in the config's mcpServers (${known.length ? `it has: ${known.join(', ')}` : 'it has none'})`, where);
}
