import { z } from 'zod';

/**
 * One tool as an MCP server listed it, kept of what a model is offered: its name (the server's,
 * before any prefix), description and schemas.
 */
export const McpListedToolSchema = z.object({
  name: z.string(),
  description: z.string().optional(),
  inputSchema: z.record(z.string(), z.unknown()),
  outputSchema: z.record(z.string(), z.unknown()).optional(),
});
export type McpListedTool = z.infer<typeof McpListedToolSchema>;

/** The tools each MCP server of a run listed, by the server's key (the config's name, or `<target>.<name>`). */
export const McpListedToolsSchema = z.record(z.string(), z.array(McpListedToolSchema));
export type McpListedTools = z.infer<typeof McpListedToolsSchema>;
