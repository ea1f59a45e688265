import type { z } from 'zod';
import { AgentEvalsError } from '../core/errors.js';
import { connectMcpServer, type McpTool } from './mcp-client.js';
import { runMcpCalls } from './mcp-calls.js';
import { readMcpCase } from './mcp-case.js';
import { resolveMcpServer } from './mcp-target-server.js';
import type { McpTargetSchema } from './target-schemas.js';
import { whereIn, type TargetSettings } from './target-settings.js';
import type { Target } from './types.js';

/**
 * An MCP server under test, without a model: each trial connects to the server (a stdio server is
 * started for it and ended with it, so no trial sees another's state), makes the case's calls and
 * closes. The target's `timeoutMs` bounds each call, over the server's own.
 */
export async function buildMcpTarget(name: string, spec: z.infer<typeof McpTargetSchema>, settings: TargetSettings): Promise<Target> {
  const resolved = resolveMcpServer(spec.mcp, name, settings.mcpServers, whereIn(settings, name)('.mcp'));
  const server = spec.timeoutMs !== undefined ? { ...resolved.server, timeoutMs: spec.timeoutMs } : resolved.server;
  return {
    name,
    async run(trial, signal) {
      const read = readMcpCase(trial.input);
      if (!read.ok) throw new AgentEvalsError(`case ${trial.id}: ${read.error}`);
      // Through the run's pool when there is one: its proxy, its stderr log, ended with the run too.
      const connection = settings.mcp
        ? await settings.mcp.connectOwn({ name: resolved.name, key: `${name}.${resolved.name}`, config: server })
        : await connectMcpServer({ name: resolved.name, server, rootDir: settings.rootDir, env: settings.env });
      try {
        // The trial may have ended (timeout, Ctrl-C) while the server started.
        if (signal.aborted) throw signal.reason instanceof Error ? signal.reason : new AgentEvalsError('aborted');
        // The tool list is read only for what needs a declared schema.
        const tools = read.calls.some((c) => c.checkOutputSchema === true) ? await connection.listTools(signal) : [];
        return await runMcpCalls(connection, new Map(tools.map((t: McpTool) => [t.name, t])), read.calls, { signal });
      } finally {
        await connection.close();
      }
    },
  };
}
