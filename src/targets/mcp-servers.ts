import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { UserError } from '../core/errors.js';
import type { McpListedTool, McpListedTools } from '../core/mcp-listed-tools.js';
import { connectMcpServer, resultText, type McpConnection, type McpTool } from './mcp-client.js';
import type { McpServerConfig, McpServersSchema } from './mcp-server-schema.js';
import type { Tool } from './tool.js';
import type { ProxySetting } from '../providers/proxy.js';

/**
 * The run's MCP servers: each connected (a stdio one started) on the first trial that needs it, its
 * tools listed once and cached, shared by every trial and target of the run, and closed (a stdio
 * server's process group ended) when the run ends. A server named in the config's `mcpServers` is
 * one process however many targets use it; one given in full on a target is that target's own.
 */
export interface McpServerPool {
  /** A target's `mcpServers` resolved against the config's; a UserError naming the field for an unknown name. */
  resolve(target: string, servers: z.infer<typeof McpServersSchema>, where: (field: string) => { file: string | undefined; field: string }): ResolvedMcpServer[];
  /** The tools of `server` as a model-agent target offers them (`<prefix><tool>`), each call going through MCP. */
  tools(server: ResolvedMcpServer, signal?: AbortSignal): Promise<Tool[]>;
  /**
   * A connection of the caller's own (an `mcp` target's trial): started now, with the run's proxy and
   * its stderr in the run folder as the shared ones, ended by the caller or, still open, by `close`.
   */
  connectOwn(server: ResolvedMcpServer): Promise<McpConnection>;
  /** The tools each server listed this run (or the recording gave), by key: what the results keep for `--replay-tools`. */
  listed(): McpListedTools;
  /** Ends every server; idempotent. */
  close(): Promise<void>;
}

export interface ResolvedMcpServer {
  /** The server's name as the target gives it (the default prefix of its tools). */
  name: string;
  /** One connection per key: the config's name (`memory`), or `<target>.<name>` for a target's own. */
  key: string;
  config: McpServerConfig;
}

export interface McpServerPoolOptions {
  /** The config's `mcpServers`. */
  servers: Readonly<Record<string, McpServerConfig>>;
  rootDir: string;
  env: NodeJS.ProcessEnv;
  /** The config's `proxy`, for HTTP servers. */
  proxy?: ProxySetting | undefined;
  /** The run folder: each stdio server's stderr is `mcp-<key>.stderr.log` in it. */
  logDir?: string | undefined;
  /**
   * `--replay-tools`: the tools the recorded run's servers listed. A server found here is not started
   * to list its tools; only a call the tape does not answer starts it.
   */
  recorded?: McpListedTools | undefined;
}

interface Entry {
  connection?: Promise<McpConnection>;
  tools?: Promise<readonly McpListedTool[]>;
}

/** Permissive on our side: the server validates its own arguments and answers an error result. */
const MCP_ARGS = z.record(z.string(), z.unknown());

export function mcpServerPool(opts: McpServerPoolOptions): McpServerPool {
  const entries = new Map<string, Entry>();
  const listed = new Map<string, readonly McpListedTool[]>();
  const own = new Set<McpConnection>();
  let closed = false;

  const start = async (server: ResolvedMcpServer): Promise<McpConnection> => {
    let stderrFile: string | undefined;
    if (opts.logDir && 'command' in server.config) {
      await mkdir(opts.logDir, { recursive: true });
      stderrFile = join(opts.logDir, `mcp-${server.key}.stderr.log`);
    }
    return connectMcpServer({ name: server.name, server: server.config, rootDir: opts.rootDir, env: opts.env, proxy: opts.proxy, stderrFile });
  };

  const entry = (server: ResolvedMcpServer): Entry => {
    let e = entries.get(server.key);
    if (!e) entries.set(server.key, (e = {}));
    return e;
  };
  const connect = (server: ResolvedMcpServer): Promise<McpConnection> => {
    if (closed) return Promise.reject(new Error(`MCP server "${server.name}": the run has ended`));
    const e = entry(server);
    if (!e.connection) {
      const connection = start(server);
      // A failed start is not cached: the next trial tries again (and fails naming the cause again).
      connection.catch(() => (e.connection = undefined));
      e.connection = connection;
    }
    return e.connection;
  };

  return {
    resolve(target, servers, where) {
      return Object.entries(servers).map(([name, value]) => {
        if (typeof value !== 'string') return { name, key: `${target}.${name}`, config: value };
        const config = opts.servers[value];
        if (!config) {
          const known = Object.keys(opts.servers);
          throw new UserError(`unknown MCP server "${value}" (the config's mcpServers has ${known.length ? known.map((k) => `"${k}"`).join(', ') : 'none'})`, where(`.mcpServers.${name}`));
        }
        return { name, key: value, config: { ...config, ...(name !== value && config.toolPrefix === undefined ? { toolPrefix: `${name}__` } : {}) } };
      });
    },
    async tools(server, signal) {
      if (closed) throw new Error(`MCP server "${server.name}": the run has ended`);
      const e = entry(server);
      if (!e.tools) {
        const recorded = opts.recorded?.[server.key];
        e.tools = recorded ? Promise.resolve(recorded) : connect(server).then(async (c) => (await c.listTools(signal)).map(listedTool));
        e.tools.then((tools) => listed.set(server.key, tools)).catch(() => (e.tools = undefined));
      }
      const tools = await e.tools;
      const prefix = server.config.toolPrefix ?? `${server.name}__`;
      return tools.map((t) => {
        const name = `${prefix}${t.name}`;
        // The providers' rule for a tool name (as tool() checks it).
        if (!/^[A-Za-z0-9_-]{1,64}$/.test(name))
          throw new Error(
            `MCP server "${server.name}": its tool "${t.name}" is offered as "${name}", which is not 1-64 letters, digits, "_" or "-" (what model providers accept); set a shorter toolPrefix`,
          );
        return mcpTool(() => connect(server), server.name, name, t);
      });
    },
    async connectOwn(server) {
      if (closed) throw new Error(`MCP server "${server.name}": the run has ended`);
      const connection = await start(server);
      own.add(connection);
      return {
        name: connection.name,
        get pid() {
          return connection.pid;
        },
        listTools: (signal) => connection.listTools(signal),
        callTool: (tool, args, options) => connection.callTool(tool, args, options),
        close: async () => {
          own.delete(connection);
          await connection.close();
        },
      };
    },
    listed: () => Object.fromEntries([...listed].map(([key, tools]) => [key, [...tools]])),
    async close() {
      closed = true;
      const all = [...entries.values()];
      entries.clear();
      const connections = [...all.flatMap((e) => (e.connection ? [e.connection] : [])), ...[...own].map((c) => Promise.resolve(c))];
      own.clear();
      await Promise.all(connections.map((c) => c.then((open) => open.close()).catch(() => {})));
    },
  };
}

/** What the results keep of a listed tool: what the model is offered. */
function listedTool(t: McpTool): McpListedTool {
  return {
    name: t.name,
    ...(t.description !== undefined ? { description: t.description } : {}),
    inputSchema: t.inputSchema,
    ...(t.outputSchema ? { outputSchema: t.outputSchema } : {}),
  };
}

/**
 * One MCP tool as a model-agent `Tool`: a failed call throws its message, which the loop records as
 * the tool's error. The server is connected on the first call (already, unless the tools came from a
 * recording).
 */
function mcpTool(connect: () => Promise<McpConnection>, server: string, name: string, t: McpListedTool): Tool {
  const { $schema: _drop, ...jsonSchema } = t.inputSchema;
  return Object.freeze({
    name,
    description: t.description,
    parameters: MCP_ARGS,
    jsonSchema,
    ...(t.outputSchema ? { outputSchema: t.outputSchema } : {}),
    server,
    async execute(args: Record<string, unknown>, ctx: { signal: AbortSignal }) {
      const connection = await connect();
      const outcome = await connection.callTool(t.name, args, { signal: ctx.signal });
      if (!outcome.ok) throw new Error(outcome.error.message);
      const { result } = outcome;
      // What the model reads: the text parts; a result without text as its structured content or parts.
      const text = resultText(result);
      return text || (result.structuredContent ?? result.content);
    },
  });
}
