import { z } from 'zod';
import { BOUNDS, boundedNumber } from '../core/bounds.js';
import { ModelRefSchema } from '../providers/model-ref.js';
import type { TargetFunction } from './function-target.js';
import { ProxySettingSchema } from '../providers/proxy.js';
import { McpServerOrNameSchema } from './mcp-server-schema.js';
import { McpServersSchema } from './mcp-server-schema.js';

/**
 * The config schema of each target kind with keys, apart from the kinds' list (config-schema.ts):
 * each kind's module reads its own schema's type from here, and the list imports those modules.
 */

/** A config value that must be a function; `what` names it in the error. */
export const functionValue = <T>(what: string) => z.custom<T>((v) => typeof v === 'function', `expected ${what} (a function)`);

/** One process per trial: the case as JSON on stdin, an AgentRun as JSON on stdout. */
export const CommandTargetSchema = z
  .object({
    command: z.array(z.string().min(1)).min(1),
    cwd: z.string().optional(),
    /** Set on top of the inherited variables. */
    env: z.record(z.string(), z.string()).optional(),
    /** Names copied from the runner's environment; replaces the default list (see command-env.ts). */
    inheritEnv: z.array(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'an environment variable name is letters, digits and "_"')).optional(),
    timeoutMs: boundedNumber(BOUNDS.timeoutMs).optional(),
    /** Bound of stdout; more fails the trial. */
    maxOutputBytes: boundedNumber(BOUNDS.count).optional(),
  })
  .strict();

/** A model with instructions and tools, driven in a tool loop by the runner. */
export const ModelTargetSchema = z
  .object({
    model: ModelRefSchema,
    instructions: z.string().optional(),
    instructionsFile: z.string().optional(),
    tools: z.array(z.unknown()).optional(),
    /** MCP servers whose tools the model is offered (`<server>__<tool>`): each in full or by the name of one in the config's `mcpServers`. */
    mcpServers: McpServersSchema.optional(),
    maxSteps: boundedNumber(BOUNDS.count).optional(),
    maxTokens: boundedNumber(BOUNDS.count).optional(),
    temperature: z.number().min(0).max(2).optional(),
    timeoutMs: boundedNumber(BOUNDS.timeoutMs).optional(),
  })
  .strict();

/** An agent running as a service: sessions and turns over HTTP. */
export const HttpTargetSchema = z
  .object({
    /** The service's base URL, of scheme `http` or `https` (`localhost:3000` without one is refused: it parses as a URL of scheme `localhost:`). */
    url: z.url({ protocol: /^https?$/, error: 'expected an http:// or https:// URL' }),
    headers: z.record(z.string(), z.string()).optional(),
    timeoutMs: boundedNumber(BOUNDS.timeoutMs).optional(),
    /** Largest response body accepted (bytes, default 16 MB); a bigger one fails the trial. */
    maxResponseBytes: boundedNumber(BOUNDS.count).optional(),
    /** This target's HTTP proxy (a URL), or false to connect directly; over the config's `proxy` and the environment's. */
    proxy: ProxySettingSchema.optional(),
  })
  .strict();

/**
 * A function target with options: `{ function: agent, otel: true }` builds each run from the agent's
 * OpenTelemetry spans; `{ function: agent, isolate: true }` runs it in a worker thread with a heap cap.
 */
export const FunctionTargetSchema = z
  .object({
    function: functionValue<TargetFunction>('the target function'),
    otel: z.boolean().optional(),
    /** Run the function in a worker thread: its heap exhaustion, process.exit or crash fails only its trial. */
    isolate: z.boolean().optional(),
    /** The isolated worker's heap cap in MB (default 1024); needs `isolate: true`. */
    maxHeapMb: boundedNumber(BOUNDS.heapMb).optional(),
  })
  .strict();

/** An MCP server under test, without a model: each case calls its tools (mcp-target.ts). */
export const McpTargetSchema = z
  .object({
    /** The server: in full (stdio `{ command, args }` or `{ url }`), or the name of one in the config's `mcpServers`. */
    mcp: McpServerOrNameSchema,
    /** The bound of each call (and of connecting and listing the tools); over the server's own `timeoutMs`. */
    timeoutMs: boundedNumber(BOUNDS.timeoutMs).optional(),
  })
  .strict();
