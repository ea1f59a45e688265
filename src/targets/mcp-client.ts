import { resolve } from 'node:path';
import { SecretRedactor, envSecretValues } from '../providers/secret-redactor.js';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { CallToolResult, Tool as McpTool } from '@modelcontextprotocol/sdk/types.js';
import { errorMessage } from '../core/errors.js';
import { pushAll } from '../core/push-all.js';
import { responseTooLarge } from '../providers/body-limit.js';
import type { FetchLike } from '../providers/fetch-like.js';
import type { ProxySetting } from '../providers/proxy.js';
import { transportFetch } from '../providers/http-transport.js';
import { commandEnv } from './command-env.js';
import type { McpServerConfig } from './mcp-server-schema.js';
import { GroupStdioTransport } from './mcp-stdio-transport.js';

/**
 * The one MCP client of agent-evals: connects a server (stdio, in its own process group; or
 * streamable HTTP, through the project's transport), lists its tools and calls them with a timeout,
 * an abort signal and a bound on the result's size. The SDK is loaded on first connect, so a config
 * without MCP loads nothing of it.
 *
 * A call never throws for what the server did: an `isError` result, a protocol error, a timeout, the
 * server exiting mid-call and a result over the bound all come back as an `McpCallError` naming the
 * server and the cause, for the caller to record as a tool error. Only the caller's own abort throws
 * (its reason). After a failure that ends the connection (exit, oversized message), the next call
 * starts the server again; the failed call's error says so.
 */

export type { McpTool, CallToolResult };

/** The bound of one call (and of listing tools) when the server sets no `timeoutMs`. */
export const DEFAULT_MCP_TIMEOUT_MS = 30_000;
/**
 * The bound of starting and initializing a server: at least this, whatever its `timeoutMs` (a
 * process starting on a busy machine is slow, and a small `timeoutMs` is meant for the calls).
 */
export const MCP_START_TIMEOUT_MS = 60_000;
/** The largest result (one JSON-RPC message) read from a server. */
export const DEFAULT_MCP_MAX_RESULT_BYTES = 4 * 1024 * 1024;

export interface McpConnectOptions {
  /** The server's name (as in the config), named in every error. */
  name: string;
  server: McpServerConfig;
  /** A stdio server's `cwd` resolves against it. */
  rootDir: string;
  /** The runner's environment: a stdio server gets what `commandEnv` picks of it; the HTTP proxy setting is read from it. */
  env: NodeJS.ProcessEnv;
  /** An HTTP server's proxy (the config's `proxy`); unset: the environment's. */
  proxy?: ProxySetting | undefined;
  /** Where a stdio server's stderr is appended; unset: discarded. */
  stderrFile?: string | undefined;
}

/** Why a call failed. */
export type McpFailure =
  /** The tool answered with `isError: true` (its result is in `result`). */
  | 'tool-error'
  /** A JSON-RPC error, an invalid result, or a failed send. */
  | 'protocol'
  /** No answer within the server's `timeoutMs`. */
  | 'timeout'
  /** The connection ended mid-call: the process exited, could not start, or the HTTP stream failed. */
  | 'connection'
  /** The answer was larger than the bound. */
  | 'too-large';

export interface McpCallError {
  server: string;
  tool: string;
  cause: McpFailure;
  /** `MCP server "memory": tool read_graph …`: what a trajectory records as the tool's error. */
  message: string;
  /** The tool's own result, for a `tool-error`. */
  result?: CallToolResult;
}

export type McpCallOutcome = { ok: true; result: CallToolResult } | { ok: false; error: McpCallError };

export interface McpCallOptions {
  /** The caller's abort (trial timeout, Ctrl-C): the call is cancelled and its reason thrown. */
  signal?: AbortSignal | undefined;
  /** Over the server's `timeoutMs`. */
  timeoutMs?: number | undefined;
}

export interface McpConnection {
  readonly name: string;
  /** The stdio server's pid (leader of its process group) while it runs; undefined for HTTP. */
  readonly pid: number | undefined;
  /** The server's tools (every page). Throws an Error naming the server when it cannot. */
  listTools(signal?: AbortSignal): Promise<McpTool[]>;
  callTool(tool: string, args: Record<string, unknown>, options?: McpCallOptions): Promise<McpCallOutcome>;
  /** Ends the connection (a stdio server's whole process group). Idempotent. */
  close(): Promise<void>;
}

type Sdk = {
  client: typeof import('@modelcontextprotocol/sdk/client/index.js');
  stdio: typeof import('@modelcontextprotocol/sdk/shared/stdio.js');
  http: typeof import('@modelcontextprotocol/sdk/client/streamableHttp.js');
  types: typeof import('@modelcontextprotocol/sdk/types.js');
};
let sdk: Promise<Sdk> | undefined;
const loadSdk = (): Promise<Sdk> =>
  (sdk ??= Promise.all([
    import('@modelcontextprotocol/sdk/client/index.js'),
    import('@modelcontextprotocol/sdk/shared/stdio.js'),
    import('@modelcontextprotocol/sdk/client/streamableHttp.js'),
    import('@modelcontextprotocol/sdk/types.js'),
  ]).then(([client, stdio, http, types]) => ({ client, stdio, http, types })));

/** One live session with the server; replaced by a fresh one after a fault. */
interface Session {
  client: Client;
  transport: Transport & { pid?: number | undefined };
  /** Aborted (with the cause) when the connection fails: every call in flight fails with it. */
  fault: AbortController;
}

const CLIENT_INFO = { name: 'agent-evals', version: '1' };

/** Connects to the server now (a stdio server is started); throws an Error naming the server when it cannot. */
export async function connectMcpServer(opts: McpConnectOptions): Promise<McpConnection> {
  const lib = await loadSdk();
  const timeoutMs = opts.server.timeoutMs ?? DEFAULT_MCP_TIMEOUT_MS;
  const startMs = Math.max(timeoutMs, MCP_START_TIMEOUT_MS);
  const maxBytes = opts.server.maxResultBytes ?? DEFAULT_MCP_MAX_RESULT_BYTES;
  const who = `MCP server "${opts.name}"`;
  let current: Session | undefined;
  let opening: Promise<Session> | undefined;
  let closed = false;

  const open = async (): Promise<Session> => {
    const fault = new AbortController();
    const onfault = (error: Error) => {
      if (!fault.signal.aborted) fault.abort(error);
    };
    const transport = makeTransport(lib, opts, maxBytes, onfault);
    const client = new lib.client.Client(CLIENT_INFO, { capabilities: {} });
    const session = { client, transport, fault };
    try {
      await raceFault(client.connect(transport, { timeout: startMs }), fault.signal);
    } catch (err) {
      await transport.close().catch(() => {});
      throw new Error(`${who} could not be connected: ${describe(err, fault.signal, startMs, lib, startMs === timeoutMs ? 'its timeoutMs' : 'the bound of starting a server')}`, { cause: err });
    }
    return session;
  };

  const session = async (): Promise<Session> => {
    if (closed) throw new Error(`${who} is closed`);
    if (current && !current.fault.signal.aborted) return current;
    if (current) {
      void current.transport.close().catch(() => {});
      current = undefined;
    }
    opening ??= open().finally(() => (opening = undefined));
    current = await opening;
    return current;
  };

  current = await session();

  return {
    name: opts.name,
    get pid() {
      return current && !current.fault.signal.aborted ? current.transport.pid : undefined;
    },
    async listTools(signal) {
      const s = await session();
      const tools: McpTool[] = [];
      let cursor: string | undefined;
      try {
        do {
          const page = await raceFault(s.client.listTools(cursor ? { cursor } : undefined, { timeout: timeoutMs, ...(signal ? { signal } : {}) }), s.fault.signal);
          pushAll(tools, page.tools);
          cursor = page.nextCursor;
        } while (cursor);
      } catch (err) {
        if (signal?.aborted) throw abortReason(signal);
        throw new Error(`${who} could not list its tools: ${describe(err, s.fault.signal, timeoutMs, lib)}`, { cause: err });
      }
      return tools;
    },
    async callTool(tool, args, options = {}) {
      const { signal } = options;
      const bound = options.timeoutMs ?? timeoutMs;
      const fail = (cause: McpFailure, why: string, result?: CallToolResult): McpCallOutcome => ({
        ok: false,
        error: { server: opts.name, tool, cause, message: `${who}: tool ${tool} ${why}`, ...(result ? { result } : {}) },
      });
      let s: Session;
      try {
        s = await session();
      } catch (err) {
        if (signal?.aborted) throw abortReason(signal);
        return fail('connection', `could not be called: ${errorMessage(err)}`);
      }
      try {
        const result = (await raceFault(s.client.callTool({ name: tool, arguments: args }, undefined, { timeout: bound, ...(signal ? { signal } : {}) }), s.fault.signal)) as CallToolResult;
        if (result.isError) return fail('tool-error', `returned an error: ${resultText(result) || '(no text)'}`, result);
        return { ok: true, result };
      } catch (err) {
        if (signal?.aborted) throw abortReason(signal);
        const cause = classify(err, s.fault.signal, lib);
        const restart = cause === 'connection' || cause === 'too-large' ? ('command' in opts.server ? ' (the next call starts the server again)' : ' (the next call reconnects)') : '';
        return fail(cause, `failed: ${describe(err, s.fault.signal, bound, lib)}${restart}`);
      }
    },
    async close() {
      if (closed) return;
      closed = true;
      const s = current;
      current = undefined;
      // The client closes its transport: a stdio server's group is killed, an HTTP session ended.
      if (s) await s.client.close().catch(() => s.transport.close().catch(() => {}));
    },
  };
}

function makeTransport(lib: Sdk, opts: McpConnectOptions, maxBytes: number, onfault: (error: Error) => void): Session['transport'] {
  const { server } = opts;
  if ('command' in server) {
    return new GroupStdioTransport(lib.stdio, {
      command: server.command,
      args: server.args ?? [],
      cwd: resolve(opts.rootDir, server.cwd ?? '.'),
      env: commandEnv(server, opts.env),
      stderrFile: opts.stderrFile,
      // Quoted in an error only when there is no log file: a secret it printed is masked there.
      redact: (text) => new SecretRedactor([...envSecretValues(opts.env), ...Object.values(server.env ?? {})]).redact(text),
      maxMessageBytes: maxBytes,
      onfault,
    });
  }
  const fetch = boundedFetch(transportFetch({ env: opts.env, proxy: opts.proxy }), maxBytes, onfault);
  return new lib.http.StreamableHTTPClientTransport(new URL(server.url), {
    fetch,
    ...(server.headers ? { requestInit: { headers: server.headers } } : {}),
  });
}

/**
 * Each response body counted: past `maxBytes` the connection fails with the bound named (the SDK
 * alone would report a broken stream and leave the call waiting for its timeout).
 */
function boundedFetch(base: FetchLike, maxBytes: number, onfault: (error: Error) => void): FetchLike {
  return async (input, init) => {
    const res = await base(input, init);
    if (!res.body) return res;
    let total = 0;
    const counted = res.body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          total += chunk.byteLength;
          if (total <= maxBytes) return controller.enqueue(chunk);
          const err = responseTooLarge(maxBytes);
          onfault(new Error(`the server sent a response larger than ${maxBytes} bytes (its maxResultBytes)`));
          controller.error(err);
        },
      }),
    );
    return new Response(counted, { status: res.status, statusText: res.statusText, headers: res.headers });
  };
}

/** `promise`, or the fault's reason as soon as the connection fails. */
function raceFault<T>(promise: Promise<T>, fault: AbortSignal): Promise<T> {
  if (fault.aborted) return Promise.reject(fault.reason as Error);
  return new Promise<T>((resolvePromise, reject) => {
    const onFault = () => reject(fault.reason as Error);
    fault.addEventListener('abort', onFault, { once: true });
    promise.then(
      (value) => {
        fault.removeEventListener('abort', onFault);
        resolvePromise(value);
      },
      (err: unknown) => {
        fault.removeEventListener('abort', onFault);
        reject(err instanceof Error ? err : new Error(errorMessage(err)));
      },
    );
  });
}

function classify(err: unknown, fault: AbortSignal, lib: Sdk): McpFailure {
  if (fault.aborted) return /larger than/.test(errorMessage(fault.reason)) ? 'too-large' : 'connection';
  if (err instanceof lib.types.McpError) {
    if (err.code === (lib.types.ErrorCode.RequestTimeout as number)) return 'timeout';
    if (err.code === (lib.types.ErrorCode.ConnectionClosed as number)) return 'connection';
  }
  return 'protocol';
}

function describe(err: unknown, fault: AbortSignal, timeoutMs: number, lib: Sdk, which = 'its timeoutMs'): string {
  if (fault.aborted) return errorMessage(fault.reason);
  if (err instanceof lib.types.McpError && err.code === (lib.types.ErrorCode.RequestTimeout as number)) return `no answer within ${timeoutMs} ms (${which})`;
  return errorMessage(err);
}

function abortReason(signal: AbortSignal): Error {
  return signal.reason instanceof Error ? signal.reason : new Error('aborted');
}

/** The text parts of a tool result, joined: what a model or an error message is shown of it. */
export function resultText(result: CallToolResult): string {
  return result.content
    .filter((c): c is Extract<CallToolResult['content'][number], { type: 'text' }> => c.type === 'text')
    .map((c) => c.text)
    .join('\n');
}
