/**
 * `agent-evals/openai-agents`: an OpenAI Agents SDK `run()` result as an AgentRun. One step per
 * model response (its usage and model), tool calls joined with their outputs by call id. Declares
 * only the fields it reads, so it imports nothing of the SDK; they are the same in @openai/agents 0.14
 * and 0.20 (RunResult, and RunState's `_trace`, read in agents-core 0.20's result.d.ts and runState.d.ts).
 */
import type { AgentRun, Step, ToolCall } from '../core/agent-run.js';
import type { TokenUsage } from '../core/usage.js';
import { jsonOrText } from './json-text.js';
import { isList, wrongInput } from './adapter-input.js';
import { recordedFunctionSpans, tracingInUse, UNTRACED_ID, type FunctionSpanRecord } from './openai-agents-tracing.js';

export { openAIAgentsTracing, type OpenAIAgentsTracing, type OpenAIAgentsTracingOptions } from './openai-agents-tracing.js';

/** The parts of a `run()` result (RunResult, or a StreamedRunResult after `await result.completed`) the adapter reads. */
export interface OpenAIAgentsResultLike {
  finalOutput?: unknown;
  rawResponses: readonly OpenAIAgentsResponseLike[];
  newItems: readonly { type: string; rawItem?: unknown; output?: unknown }[];
  lastAgent?: { model?: unknown; instructions?: unknown } | undefined;
  /** Its trace (when tracing is on) is what ties the run to the spans `openAIAgentsTracing()` kept. */
  state?: { _trace?: { traceId?: string } | null } | undefined;
  /** A streamed run's: settles when the stream has finished. */
  completed?: PromiseLike<void>;
  /** Tool calls waiting for approval: a run that stopped for them has no final output either. */
  interruptions?: readonly unknown[];
}

export interface OpenAIAgentsResponseLike {
  usage?: {
    inputTokens?: number;
    outputTokens?: number;
    /** One record per request (a Usage) or one record (a RequestUsage). */
    inputTokensDetails?: unknown;
    outputTokensDetails?: unknown;
  };
  output: readonly unknown[];
  /** The provider's raw response (non-streamed runs): its `model` names the model that answered. */
  providerData?: Record<string, unknown>;
}

export function fromOpenAIAgents(result: OpenAIAgentsResultLike): AgentRun {
  if (typeof result !== 'object' || result === null || !isList(result.rawResponses) || !isList(result.newItems)) {
    throw wrongInput('fromOpenAIAgents', 'the result of run(agent, input)', result, '`await run(agent, input)` before handing it over');
  }
  // `await run(…, { stream: true })` resolves when the stream starts: read then, the run would be
  // empty (no reply, no tool calls), and notCalledTool or usedNoTools would pass on it.
  if (result.completed !== undefined && result.finalOutput === undefined && !result.interruptions?.length) {
    throw new Error('fromOpenAIAgents: this streamed run has not finished; `await result.completed` before handing it over');
  }
  const traceId = result.state?._trace?.traceId;
  // Untraced, the processor saw none of the tools: a tool that threw would be recorded as a result and
  // pass noToolErrors. The SDK turns tracing off under NODE_ENV=test, as CI often sets it.
  if (tracingInUse() && (!traceId || traceId === UNTRACED_ID) && result.newItems.some(isFunctionToolCall)) {
    throw new Error(
      'fromOpenAIAgents: this run was not traced, so openAIAgentsTracing() saw none of its tool calls and a tool that threw would pass as a result. ' +
        'Tracing is off: the SDK turns it off when NODE_ENV is `test` (call `setTracingDisabled(false)` from @openai/agents after importing it), or a `setTracingDisabled(true)` or a Runner with `tracingDisabled: true` did',
    );
  }
  const recorded = recordedFunctionSpans(traceId ?? '');
  // Traced, every function tool's call has a span: none kept means the processor made is not registered.
  if (tracingInUse() && recorded.length === 0 && result.newItems.some(isFunctionToolCall)) {
    throw new Error(
      'fromOpenAIAgents: openAIAgentsTracing() kept no span of this run, so a tool that threw would pass as a result: register it with the SDK (`addTraceProcessor(tracing)` or `setTraceProcessors([tracing])`, once at start-up)',
    );
  }
  const outputs = toolOutputs(result.newItems);
  const agentModel = typeof result.lastAgent?.model === 'string' && result.lastAgent.model !== '' ? result.lastAgent.model : undefined;
  const spans = new SpanMatcher(recorded);

  const steps = result.rawResponses.map((response): Step => {
    const step: Step = {};
    const text = response.output.flatMap(messageText).join('');
    if (text !== '') step.text = text;
    const calls = response.output.filter(isFunctionCall).map((call) => toolCall(call, outputs, spans));
    if (calls.length > 0) step.toolCalls = calls;
    step.usage = usageOf(response.usage);
    const model = typeof response.providerData?.model === 'string' ? response.providerData.model : agentModel;
    if (model) step.model = `openai:${model}`;
    return step;
  });

  const run: AgentRun = { reply: replyText(result.finalOutput), steps };
  if (typeof result.lastAgent?.instructions === 'string' && result.lastAgent.instructions !== '') run.instructions = result.lastAgent.instructions;
  return run;
}

interface FunctionCallItem {
  type: 'function_call';
  callId: string;
  name: string;
  arguments: string;
}

/** A run item of a function tool's call (a handoff's call is a `handoff_call_item`, a hosted tool's another raw type). */
function isFunctionToolCall(item: OpenAIAgentsResultLike['newItems'][number]): boolean {
  return item.type === 'tool_call_item' && isFunctionCall(item.rawItem);
}

function isFunctionCall(item: unknown): item is FunctionCallItem {
  const i = item as Partial<FunctionCallItem> | null;
  return typeof i === 'object' && i !== null && i.type === 'function_call' && typeof i.callId === 'string' && typeof i.name === 'string';
}

function messageText(item: unknown): string[] {
  const i = item as { type?: unknown; content?: unknown } | null;
  if (typeof i !== 'object' || i === null || i.type !== 'message' || !Array.isArray(i.content)) return [];
  return i.content.flatMap((part: { type?: unknown; text?: unknown }) => (part?.type === 'output_text' && typeof part.text === 'string' ? [part.text] : []));
}

/** Tool outputs by call id: the value the tool returned (`output`), not the text the model saw. */
function toolOutputs(items: OpenAIAgentsResultLike['newItems']): Map<string, unknown> {
  const byCall = new Map<string, unknown>();
  for (const item of items) {
    if (item.type !== 'tool_call_output_item') continue;
    const callId = (item.rawItem as { callId?: unknown } | undefined)?.callId;
    if (typeof callId === 'string') byCall.set(callId, item.output);
  }
  return byCall;
}

function toolCall(call: FunctionCallItem, outputs: Map<string, unknown>, spans: SpanMatcher): ToolCall {
  const out: ToolCall = { name: call.name, args: jsonOrText(call.arguments) }; // arguments the model got wrong stay visible as they were sent
  if (outputs.has(call.callId)) out.result = outputs.get(call.callId);
  const span = spans.take(call.name, call.arguments);
  if (span?.error) out.isError = true;
  if (span?.durationMs !== undefined) out.durationMs = span.durationMs;
  if (span?.server) out.server = span.server;
  return out;
}

/**
 * Function spans carry no call id, so a call takes the first unused span of its tool with the same
 * arguments (when traced), else the first unused span of its tool: spans start in call order.
 */
class SpanMatcher {
  readonly #free: FunctionSpanRecord[];

  constructor(spans: FunctionSpanRecord[]) {
    this.#free = [...spans];
  }

  take(name: string, args: string): FunctionSpanRecord | undefined {
    let i = this.#free.findIndex((s) => s.name === name && s.input === args);
    if (i < 0) i = this.#free.findIndex((s) => s.name === name);
    return i < 0 ? undefined : this.#free.splice(i, 1)[0];
  }
}

function usageOf(u: OpenAIAgentsResponseLike['usage']): TokenUsage {
  const usage: TokenUsage = {
    inputTokens: u?.inputTokens ?? 0,
    outputTokens: u?.outputTokens ?? 0,
    cachedInputTokens: detail(u?.inputTokensDetails, 'cached_tokens'),
    reasoningTokens: detail(u?.outputTokensDetails, 'reasoning_tokens'),
  };
  const cacheWrites = detail(u?.inputTokensDetails, 'cache_write_tokens');
  if (cacheWrites > 0) usage.cacheWriteTokens = cacheWrites;
  return usage;
}

/** A token detail summed over the records (the SDK keeps one per request). */
function detail(details: unknown, key: string): number {
  const records = Array.isArray(details) ? details : [details];
  let total = 0;
  for (const r of records) {
    const v = (r as Record<string, unknown> | null | undefined)?.[key];
    if (typeof v === 'number' && Number.isFinite(v)) total += v;
  }
  return total;
}

function replyText(output: unknown): string {
  if (typeof output === 'string') return output;
  if (output === undefined || output === null) return '';
  return JSON.stringify(output);
}
