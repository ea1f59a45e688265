/**
 * A Mastra `agent.generate()` result -> AgentRun, for Mastra 0.24 and 1.x (read in 1.71). Both wrap
 * the AI SDK v5 shapes: their steps list tool calls and results as chunks whose fields sit under
 * `payload`. Read by field, never through Mastra itself, so this entry imports nothing of Mastra.
 */
import type { AgentRun, Step, ToolCall } from '../core/agent-run.js';
import { count, modelSpec, providerId, tokenUsage } from './token-counts.js';
import { mcpServerOfTool, withMcpServer, type McpToolSets } from './mcp-tools.js';
import { describeValue, isList, wrongInput } from './adapter-input.js';

/** A tool call or result chunk: Mastra's `{ type, payload }`, or the AI SDK's own part with the fields inline. */
export interface MastraToolChunk {
  type?: string;
  payload?: MastraToolChunk;
  toolCallId?: string;
  toolName?: string;
  args?: unknown;
  input?: unknown;
  result?: unknown;
  /** A result chunk's value; in a step's `content` (Mastra 1.x) the model's view of it, `{ type, value }`. */
  output?: unknown;
  error?: unknown;
  isError?: boolean;
}

/** The usage of one model call, in the AI SDK v5 fields (Mastra 1.x flattens a v6/v7 model's usage into them). */
export interface MastraUsage {
  inputTokens?: number;
  outputTokens?: number;
  cachedInputTokens?: number;
  reasoningTokens?: number;
  /** Mastra 1.x, from a v6/v7 model: the cache writes (`inputTokens.cacheWrite`). */
  cacheCreationInputTokens?: number;
  /** Mastra 1.x: the model's own usage; nested (`inputTokens: { total, cacheRead, cacheWrite }`) from a v6/v7 model. */
  raw?: unknown;
}

export interface MastraStep {
  text?: string;
  toolCalls?: MastraToolChunk[];
  toolResults?: MastraToolChunk[];
  /**
   * AI SDK v5 content parts; read only for errors Mastra left out of `toolResults`: `tool-error`
   * parts, and (Mastra 1.x) `tool-result` parts whose output is `error-text` or `error-json`.
   */
  content?: MastraToolChunk[];
  usage?: MastraUsage;
  response?: { modelId?: string; modelMetadata?: { modelId?: string; modelProvider?: string } };
  providerMetadata?: { anthropic?: { cacheCreationInputTokens?: number | null } };
}

export interface MastraResult {
  text?: string;
  steps?: MastraStep[];
}

export interface FromMastraOptions {
  /**
   * The model's provider (`openai`, `anthropic`, ...): the prefix of each step's model for pricing,
   * and how its usage reads. The AI SDK v5 Anthropic provider leaves cache reads and writes out of
   * `inputTokens`; with `anthropic` they are added back, so `inputTokens` is the whole prompt (a v6/v7
   * Anthropic model under Mastra 1.x counts them already, and nothing is added).
   * Omitted, it is read from each step's model metadata (`openai.chat` -> `openai`).
   */
  provider?: string;
  /**
   * The MCP servers the agent's tools came from (`await mcp.listToolsets()` of Mastra's MCPClient, `getToolsets()` before 2.0, or
   * each server's tool names): a call of one of their tools, under its own name or the
   * `server_tool` name `listTools()` gives it, is recorded with `server`.
   */
  mcpServers?: McpToolSets;
}

/** A tool's failure as Mastra hands it back: a thrown Error, or a `{ error: true }` result (arguments that failed validation). */
function failure(result: unknown): { result: unknown } | undefined {
  if (result instanceof Error) return { result: result.message };
  if (typeof result === 'object' && result !== null && (result as { error?: unknown }).error === true) return { result };
  return undefined;
}

function fieldsOf(chunk: MastraToolChunk): MastraToolChunk {
  return chunk.payload ?? chunk;
}

/**
 * A thrown tool error as Mastra 1.71 keeps it: not in `toolResults` but as a `tool-result` content
 * part whose output is the model's view of the error (`{ type: 'error-text', value: message }`).
 */
function errorOutput(part: MastraToolChunk): { value: unknown } | undefined {
  if (part.type !== 'tool-result' || typeof part.output !== 'object' || part.output === null) return undefined;
  const { type, value } = part.output as { type?: unknown; value?: unknown };
  return type === 'error-text' || type === 'error-json' ? { value } : undefined;
}

function toolCallsOf(step: MastraStep): ToolCall[] {
  const byId = new Map<string, ToolCall>();
  const calls: ToolCall[] = [];
  for (const chunk of step.toolCalls ?? []) {
    const p = fieldsOf(chunk);
    if (!p.toolName) continue;
    const call: ToolCall = { name: p.toolName, args: p.args ?? p.input };
    calls.push(call);
    if (p.toolCallId) byId.set(p.toolCallId, call);
  }
  const results = [...(step.toolResults ?? []), ...(step.content ?? []).filter((c) => c.type === 'tool-error')];
  for (const chunk of results) {
    const p = fieldsOf(chunk);
    const call = p.toolCallId ? byId.get(p.toolCallId) : undefined;
    if (!call) continue;
    if (chunk.type === 'tool-error' || p.isError === true) {
      const error = p.error ?? p.result ?? p.output;
      call.result = error instanceof Error ? error.message : error;
      call.isError = true;
      continue;
    }
    const value = p.result ?? p.output;
    const failed = failure(value);
    call.result = failed ? failed.result : value;
    call.isError = failed !== undefined;
  }
  for (const part of step.content ?? []) {
    const error = errorOutput(part);
    const call = error && part.toolCallId ? byId.get(part.toolCallId) : undefined;
    if (!error || !call || 'result' in call) continue;
    call.result = error.value;
    call.isError = true;
  }
  return calls;
}

function providerOf(step: MastraStep, option: string | undefined): string | undefined {
  if (option) return option;
  const p = step.response?.modelMetadata?.modelProvider;
  return p ? providerId(p) : undefined;
}

/** A v6/v7 model's own usage: `inputTokens` is an object (`{ total, noCache, cacheRead, cacheWrite }`), not a count. */
function nestedUsage(raw: unknown): boolean {
  const input = typeof raw === 'object' && raw !== null ? (raw as { inputTokens?: unknown }).inputTokens : undefined;
  return typeof input === 'object' && input !== null;
}

function usageOf(step: MastraStep, provider: string | undefined): Step['usage'] {
  const u = step.usage;
  if (!u) return undefined;
  if (provider !== 'anthropic') return tokenUsage({ input: u.inputTokens, output: u.outputTokens, cachedInput: u.cachedInputTokens, reasoning: u.reasoningTokens });
  // A v6/v7 model's usage (Mastra 1.71 reads `inputTokens.total`) already counts cache reads and writes.
  if (nestedUsage(u.raw)) {
    return tokenUsage({ input: u.inputTokens, output: u.outputTokens, cachedInput: u.cachedInputTokens, cacheWrite: u.cacheCreationInputTokens, reasoning: u.reasoningTokens });
  }
  // The AI SDK v5 Anthropic provider reports the uncached part of the prompt as input; reads and writes come beside it.
  const read = count(u.cachedInputTokens) ?? 0;
  const written = count(step.providerMetadata?.anthropic?.cacheCreationInputTokens) ?? 0;
  const input = count(u.inputTokens);
  return tokenUsage({
    input: input === undefined ? undefined : input + read + written,
    output: u.outputTokens,
    cachedInput: u.cachedInputTokens,
    cacheWrite: step.providerMetadata?.anthropic?.cacheCreationInputTokens ?? undefined,
    reasoning: u.reasoningTokens,
  });
}

/**
 * The AgentRun of a Mastra `agent.generate()` result: one step per model call (its text, its tool
 * calls joined with their results by `toolCallId`, usage and model), the reply being `text`.
 */
export function fromMastra(result: MastraResult, options: FromMastraOptions = {}): AgentRun {
  if (typeof result === 'object' && result !== null && typeof (result as { getFullOutput?: unknown }).getFullOutput === 'function') {
    throw new TypeError(`fromMastra: expected an agent.generate() result, got ${describeValue(result)}: pass a stream's \`await output.getFullOutput()\``);
  }
  if (typeof result !== 'object' || result === null || !isList(result.steps)) {
    throw wrongInput('fromMastra', 'an agent.generate() result', result, '`await agent.generate(…)` before handing it over');
  }
  const servers = mcpServerOfTool(options.mcpServers ?? {}, '_');
  const steps = (result.steps ?? []).map((s): Step => {
    const step: Step = {};
    if (s.text) step.text = s.text;
    const toolCalls = toolCallsOf(s).map((call) => withMcpServer(call, servers));
    if (toolCalls.length > 0) step.toolCalls = toolCalls;
    const provider = providerOf(s, options.provider);
    const usage = usageOf(s, provider);
    if (usage) step.usage = usage;
    const model = modelSpec(provider, s.response?.modelId ?? s.response?.modelMetadata?.modelId);
    if (model) step.model = model;
    return step;
  });
  return { reply: typeof result.text === 'string' ? result.text : '', steps };
}
