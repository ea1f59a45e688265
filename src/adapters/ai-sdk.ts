/**
 * `agent-evals/ai-sdk`: an AI SDK `generateText` or `streamText` result as an AgentRun. The AI SDK
 * is never imported: the input types below name only the fields read, so an AI SDK 6 or 7 result
 * fits (read from ai 6.0.325 and 7.0.173).
 */
import type { AgentRun, Step, ToolCall } from '../core/agent-run.js';
import type { TokenUsage } from '../core/usage.js';
import { errorMessage } from '../core/errors.js';
import { providerId } from './token-counts.js';
import { mcpServerOfTool, withMcpServer, type McpToolSets } from './mcp-tools.js';
import { isThenable, wrongInput } from './adapter-input.js';

/** A part of a step's `content`; only tool calls, results and errors are read. */
export interface AISDKContentPart {
  type: string;
  toolCallId?: string | undefined;
  toolName?: string | undefined;
  input?: unknown;
  output?: unknown;
  error?: unknown;
  /** A tool-call the SDK refused (arguments that fail the schema, an unknown tool). */
  invalid?: boolean | undefined;
  /** A streamed tool output that a later result of the same call replaces. */
  preliminary?: boolean | undefined;
}

/** LanguageModelUsage: the whole prompt in `inputTokens`, its cache reads and writes in the details. */
export interface AISDKUsage {
  inputTokens?: number | undefined;
  outputTokens?: number | undefined;
  inputTokenDetails?: { cacheReadTokens?: number | undefined; cacheWriteTokens?: number | undefined } | undefined;
  outputTokenDetails?: { reasoningTokens?: number | undefined } | undefined;
  /** Older names of cacheReadTokens and reasoningTokens. */
  cachedInputTokens?: number | undefined;
  reasoningTokens?: number | undefined;
}

/** One StepResult: one model call and the tools it ran. */
export interface AISDKStep {
  content: readonly AISDKContentPart[];
  text: string;
  finishReason?: string | undefined;
  usage?: AISDKUsage | undefined;
  /** The model asked for: `provider` is the SDK's id, e.g. `openai.chat`. */
  model?: { provider: string; modelId: string } | undefined;
  /** The model that answered, as the provider named it (e.g. a dated snapshot). */
  response?: { modelId?: string | undefined } | undefined;
}

/** What `generateText` resolves to. */
export interface AISDKGenerateTextResult {
  steps: readonly AISDKStep[];
  text: string;
  finishReason?: string | undefined;
}

/** What `streamText` returns: the same fields as promises, settled when the stream has finished. */
export interface AISDKStreamTextResult {
  steps: PromiseLike<readonly AISDKStep[]>;
  text: PromiseLike<string>;
  finishReason: PromiseLike<string>;
}

export interface FromAISDKOptions {
  /** The system prompt the agent ran with, for judges (the result does not carry it). */
  instructions?: string;
  /**
   * The MCP servers the agent's tools came from: each server's name and the tool set its MCP client
   * gave (`await client.tools()`, or just its tool names). A call of one of these tools is recorded
   * with `server`, since the result itself does not say where a tool came from.
   */
  mcpServers?: McpToolSets;
}

/**
 * The AgentRun of an AI SDK call: one step per AI SDK step, each with its text, its tool calls
 * (joined with their results or errors by `toolCallId`), its usage and `provider:model`. The reply
 * is the final text and the stop reason the final finish reason. A `generateText` result converts
 * at once; a `streamText` result gives a promise that settles when the stream has finished (its
 * steps are awaited, which also drains a stream nobody read).
 */
export function fromAISDK(result: AISDKGenerateTextResult, options?: FromAISDKOptions): AgentRun;
export function fromAISDK(result: AISDKStreamTextResult, options?: FromAISDKOptions): Promise<AgentRun>;
export function fromAISDK(result: AISDKGenerateTextResult | AISDKStreamTextResult, options: FromAISDKOptions = {}): AgentRun | Promise<AgentRun> {
  if (isGenerated(result)) return toRun(result.steps, result.text, result.finishReason, options);
  if (!isStreamed(result)) {
    throw wrongInput(
      'fromAISDK',
      'a generateText result or a streamText result',
      result,
      "await it before handing it over (`await generateText(…)`, or an agent's `await agent.generate(…)` / `await agent.stream(…)`; a streamText result is passed as it is)",
    );
  }
  return Promise.all([result.steps, result.text, result.finishReason]).then(([steps, text, finish]) => toRun(steps, text, finish, options));
}

function isGenerated(result: AISDKGenerateTextResult | AISDKStreamTextResult): result is AISDKGenerateTextResult {
  return typeof result === 'object' && result !== null && Array.isArray(result.steps);
}

/** A streamText result (or an agent's `stream()`): not itself a promise, its steps one. */
function isStreamed(result: unknown): result is AISDKStreamTextResult {
  return typeof result === 'object' && result !== null && !isThenable(result) && isThenable((result as { steps?: unknown }).steps);
}

function toRun(steps: readonly AISDKStep[], text: string, finishReason: string | undefined, options: FromAISDKOptions): AgentRun {
  const servers = mcpServerOfTool(options.mcpServers ?? {});
  return {
    reply: text,
    steps: steps.map((step) => toStep(step, servers)),
    ...(finishReason ? { stopReason: finishReason } : {}),
    ...(options.instructions !== undefined ? { instructions: options.instructions } : {}),
  };
}

function toStep(step: AISDKStep, servers: Map<string, string>): Step {
  const toolCalls = joinToolCalls(step.content).map((call) => withMcpServer(call, servers));
  const usage = step.usage ? tokenUsage(step.usage) : undefined;
  const model = modelOf(step);
  return {
    ...(step.text ? { text: step.text } : {}),
    ...(toolCalls.length > 0 ? { toolCalls } : {}),
    // A call whose provider reported no tokens was still made: its cost is unknown, never 0.
    ...(usage ? { usage } : { usageUnknown: true as const }),
    ...(model ? { model } : {}),
  };
}

/** Tool calls in the order the model made them, each with the result or error of the same id. */
function joinToolCalls(content: readonly AISDKContentPart[]): ToolCall[] {
  const outcomes = new Map<string, AISDKContentPart>();
  for (const part of content) {
    if ((part.type !== 'tool-result' && part.type !== 'tool-error') || part.toolCallId === undefined) continue;
    const seen = outcomes.get(part.toolCallId);
    if (seen && !seen.preliminary && part.preliminary) continue;
    outcomes.set(part.toolCallId, part);
  }
  return content
    .filter((part) => part.type === 'tool-call')
    .map((call): ToolCall => {
      const name = call.toolName || 'unknown';
      const outcome = call.toolCallId !== undefined ? outcomes.get(call.toolCallId) : undefined;
      // A refused call is read from its own error, answered by a tool-error part or not: that part
      // holds the error as text, `message` in AI SDK 6 but `Name: message` in 7 (@ai-sdk/provider 4).
      if (call.invalid) return { name, args: call.input, result: errorMessage(call.error ?? outcome?.error), isError: true };
      if (outcome?.type === 'tool-result') return { name, args: call.input, result: outcome.output, isError: false };
      if (outcome?.type === 'tool-error') return { name, args: call.input, result: errorMessage(outcome.error), isError: true };
      return { name, args: call.input };
    });
}

function tokenUsage(u: AISDKUsage): TokenUsage | undefined {
  if (u.inputTokens === undefined && u.outputTokens === undefined) return undefined;
  const cached = u.inputTokenDetails?.cacheReadTokens ?? u.cachedInputTokens;
  const cacheWrite = u.inputTokenDetails?.cacheWriteTokens;
  const reasoning = u.outputTokenDetails?.reasoningTokens ?? u.reasoningTokens;
  return {
    inputTokens: u.inputTokens ?? 0,
    outputTokens: u.outputTokens ?? 0,
    ...(cached !== undefined ? { cachedInputTokens: cached } : {}),
    ...(reasoning !== undefined ? { reasoningTokens: reasoning } : {}),
    ...(cacheWrite ? { cacheWriteTokens: cacheWrite } : {}),
  };
}

/** `provider:model`: the provider id cut at its first `.` (`openai.chat` is `openai`), the model the response names. */
function modelOf(step: AISDKStep): string | undefined {
  const provider = step.model ? providerId(step.model.provider) : undefined;
  const modelId = step.response?.modelId || step.model?.modelId;
  return provider && modelId ? `${provider}:${modelId}` : undefined;
}
