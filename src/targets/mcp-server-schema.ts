import { z } from 'zod';
import { BOUNDS, boundedNumber } from '../core/bounds.js';

/**
 * How an MCP server is reached: a stdio server is a process agent-evals starts (in its own process
 * group, with the command-target environment rule), a streamable-HTTP server is a URL.
 */

const ENV_NAME = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'an environment variable name is letters, digits and "_"');

/** What every server takes: the prefix of its tools' names as the model sees them, the bound of one call. */
const common = {
  /** Tools are offered as `<toolPrefix><tool>`; default `<server name>__`. */
  toolPrefix: z.string().optional(),
  /** The bound of one tools/call (and of listing the tools); default 30 s. */
  timeoutMs: boundedNumber(BOUNDS.timeoutMs).optional(),
  /** The largest answer read from the server (bytes, default 4 MB); a bigger one fails its call. */
  maxResultBytes: boundedNumber(BOUNDS.count).optional(),
};

export const McpStdioServerSchema = z
  .object({
    command: z.string().min(1),
    args: z.array(z.string()).optional(),
    cwd: z.string().optional(),
    /** Set on top of the inherited variables. */
    env: z.record(z.string(), z.string()).optional(),
    /** Names copied from the runner's environment; replaces the default list (as for a command target). */
    inheritEnv: z.array(ENV_NAME).optional(),
    ...common,
  })
  .strict();

export const McpHttpServerSchema = z
  .object({
    /** The server's streamable HTTP endpoint, of scheme `http` or `https` (`localhost:3000/mcp` without one would parse as scheme `localhost:`). */
    url: z.url({ protocol: /^https?$/, error: 'expected an http:// or https:// URL' }),
    headers: z.record(z.string(), z.string()).optional(),
    ...common,
  })
  .strict();

/** Why a value is neither kind of server, in the user's terms (zod's own union message is only "Invalid input"). */
function serverMistake(input: unknown, orName = false): string | undefined {
  if (typeof input !== 'object' || input === null || Array.isArray(input))
    return `an MCP server is ${orName ? "the name of one in the config's mcpServers, or " : ''}an object: { command, args } (stdio) or { url } (streamable HTTP)`;
  const keys = Object.keys(input);
  const stdio = keys.includes('command');
  const http = keys.includes('url');
  if (stdio && http) return 'give "command" (a stdio server) or "url" (a streamable-HTTP server), not both';
  if (!stdio && !http) return `an MCP server needs "command" (stdio) or "url" (streamable HTTP); it has ${keys.length ? keys.map((k) => `"${k}"`).join(', ') : 'no key'}`;
  const known = Object.keys((stdio ? McpStdioServerSchema : McpHttpServerSchema).shape);
  const unknown = keys.filter((k) => !known.includes(k));
  if (unknown.length) return `unknown key${unknown.length > 1 ? 's' : ''} ${unknown.map((k) => `"${k}"`).join(', ')} of a ${stdio ? 'stdio' : 'streamable-HTTP'} server (it takes ${known.join(', ')})`;
  return undefined;
}

const serverError = { error: (issue: { code?: string; input?: unknown }) => (issue.code === 'invalid_union' ? serverMistake(issue.input) : undefined) };

export const McpServerSchema = z.union([McpStdioServerSchema, McpHttpServerSchema], serverError);
export type McpServerConfig = z.infer<typeof McpServerSchema>;

/** A server's name: the default prefix of its tools (`memory` → `memory__create_entities`). */
export const McpServerNameSchema = z.string().regex(/^[A-Za-z0-9_-]+$/, 'an MCP server name is letters, digits, "_" and "-"');

/** A server given in full, or by the name of one in the config's `mcpServers` (a string is a name: its mistakes are the name's). */
export const McpServerOrNameSchema = z.union([McpServerSchema, McpServerNameSchema], {
  error: (issue) => (issue.code === 'invalid_union' && typeof issue.input !== 'string' ? serverMistake(issue.input, true) : undefined),
});

/** On a target: each server given in full, or by the name of one in the config's `mcpServers`. */
export const McpServersSchema = z.record(McpServerNameSchema, McpServerOrNameSchema);
