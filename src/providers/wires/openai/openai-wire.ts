/** Pure mapping between our request/response shapes and OpenAI Chat Completions. */
import type OpenAI from 'openai';
import { warnOncePerSpec } from '../../spec-warning.js';
import type { TokenUsage } from '../../../core/usage.js';
import { ProviderConfigError } from '../../../core/errors.js';
import type { ModelCapabilities } from '../../capabilities.js';
import { capabilitiesOf } from '../../capability-lookup.js';
import { malformed } from '../../errors.js';
import { withRawBody } from '../../raw-body.js';
import { toOpenAIUserContent } from './openai-parts.js';
import { schemaInstruction } from '../../schema-instruction.js';
import { checkedReasoningEffort, formatModelSpec, specCapabilitiesOn, type ModelSpec } from '../../model-spec.js';
import { OPENAI_TABLE } from './facts.js';
import { chatToolsEffort } from './chat-tools.js';
import type { ChatMessage, CompletionRequest, CompletionResponse, ProviderToolCall, StructuredOutput } from '../../types.js';

type Params = OpenAI.ChatCompletionCreateParamsNonStreaming;
type WireMessage = OpenAI.ChatCompletionMessageParam;
type Effort = NonNullable<OpenAI.ReasoningEffort>;

/** How one request is shaped for its model: what the model accepts, and the spec's own settings. */
export interface OpenAIRequestOptions {
  /** What the model accepts (default: the table's row for `model`, else the wire's default). */
  capabilities?: ModelCapabilities;
  /** Sent as `reasoning_effort`; already checked against `capabilities.reasoningEfforts` (see reasoningEffortOf). */
  reasoningEffort?: string;
  temperature?: number;
  maxTokens?: number;
}

/** The efforts the SDK's `reasoning_effort` type names; a value outside it cannot be sent as typed. */
const SDK_EFFORTS: readonly Effort[] = ['none', 'minimal', 'low', 'medium', 'high', 'xhigh', 'max'];

export function isSdkEffort(value: string): value is Effort {
  return (SDK_EFFORTS as readonly string[]).includes(value);
}

/**
 * The spec's reasoning effort, checked against what its model takes. A value the model does not
 * take is a configuration error naming the model and the values it does take, raised when the
 * provider is built: the API would refuse every call with a 400, and dropping it silently would
 * grade with an effort the user did not ask for.
 */
export function reasoningEffortOf(spec: Pick<ModelSpec, 'provider' | 'model' | 'reasoningEffort'>, caps: ModelCapabilities): string | undefined {
  const effort = checkedReasoningEffort(spec, caps);
  if (effort !== undefined && !isSdkEffort(effort)) {
    throw new ProviderConfigError(`${formatModelSpec(spec)}: reasoningEffort "${effort}" is not a reasoning_effort the OpenAI SDK knows: ${SDK_EFFORTS.join(', ')}`);
  }
  return effort;
}

/**
 * The checks a spec must pass before its first call (a reasoning effort its model does not take):
 * throws ProviderConfigError. Pure, and loads no SDK, so a provider can run it when it is built.
 */
export function checkOpenAISpec(spec: ModelSpec): void {
  reasoningEffortOf(spec, specCapabilitiesOn(OPENAI_TABLE, spec));
}

/** How every request under `spec` is shaped: the same for each call, so a provider works it out once. */
export function openAIRequestOptions(spec: ModelSpec): OpenAIRequestOptions {
  const capabilities = specCapabilitiesOn(OPENAI_TABLE, spec);
  const reasoningEffort = reasoningEffortOf(spec, capabilities);
  return {
    capabilities,
    ...(reasoningEffort !== undefined ? { reasoningEffort } : {}),
    ...(spec.temperature !== undefined ? { temperature: spec.temperature } : {}),
    ...(spec.maxTokens !== undefined ? { maxTokens: spec.maxTokens } : {}),
  };
}

/** What a model spec sends for `req`, live or as a batch line: the spec's settings are the defaults. */
export function openAIParams(spec: ModelSpec, req: CompletionRequest, options: OpenAIRequestOptions = openAIRequestOptions(spec)): Params {
  return toOpenAIParams(spec.model, req, options);
}

/**
 * One Chat Completions body, shaped by what the model accepts: sampling parameters only where the
 * model takes them, the token limit under the model's parameter name, `reasoning_effort` when set,
 * and a structured answer as a strict `json_schema` response format or, for servers without one,
 * as the schema stated in the system prompt (the JSON is then read from the reply).
 */
export function toOpenAIParams(model: string, req: CompletionRequest, options: OpenAIRequestOptions = {}): Params {
  const caps = options.capabilities ?? capabilitiesOf(OPENAI_TABLE, model);
  const textSchema = req.schema !== undefined && caps.structuredOutput === 'text';
  const params: Params = { model, messages: toOpenAIMessages(textSchema ? { ...req, system: withSchemaStated(req.system, req.schema!) } : req) };
  if (req.tools && req.tools.length > 0) {
    params.tools = req.tools.map((t) => ({
      type: 'function',
      function: {
        name: t.name,
        ...(t.description !== undefined ? { description: t.description } : {}),
        parameters: t.parameters,
      },
    }));
  }
  if (req.toolChoice !== undefined) {
    params.tool_choice = typeof req.toolChoice === 'string' ? req.toolChoice : { type: 'function', function: { name: req.toolChoice.name } };
  }
  // Every structured mode but `text` is asked for the OpenAI way: forced tools and output_config
  // are other wires' answers to the same need.
  if (req.schema && !textSchema) {
    params.response_format = {
      type: 'json_schema',
      json_schema: { name: req.schema.name, schema: req.schema.jsonSchema, strict: true },
    };
  }
  // A tool request the table says Chat Completions refuses goes out as asked: the run refuses it
  // before its first call (the wire's `refusal`), and `doctor --live` shows the API's own answer.
  const effort = req.tools && req.tools.length > 0 ? chatToolsEffort(caps, options.reasoningEffort) : options.reasoningEffort;
  if (effort !== undefined && isSdkEffort(effort)) params.reasoning_effort = effort;
  const temperature = req.temperature ?? options.temperature;
  if (temperature !== undefined && takesSampling(caps, effort)) params.temperature = temperature;
  const maxTokens = req.maxTokens ?? options.maxTokens;
  if (maxTokens !== undefined) {
    // Reasoning models refuse the deprecated max_tokens; some OpenAI-compatible servers know only it.
    if (caps.tokenParam === 'max_tokens') params.max_tokens = maxTokens;
    else params.max_completion_tokens = maxTokens;
  }
  return params;
}

/**
 * Whether sampling parameters may go out: `reasoning-off` models take them only when the request
 * turns reasoning off (effort `none`); with no effort set they run at their own default effort,
 * which for these families is not `none`, so nothing is sent.
 */
export function takesSampling(caps: ModelCapabilities, effort: string | undefined): boolean {
  if (caps.sampling === 'any') return true;
  return caps.sampling === 'reasoning-off' && effort === 'none';
}

/**
 * A `temperature` the model does not take (a reasoning model, or one that takes it only at effort
 * `none`) is left off every request rather than refused by the API; said once per spec, as Anthropic's is.
 */
export function unsentTemperatureWarning(spec: Pick<ModelSpec, 'provider' | 'model' | 'temperature'>, options: OpenAIRequestOptions): string | undefined {
  const caps = options.capabilities ?? capabilitiesOf(OPENAI_TABLE, spec.model);
  if (spec.temperature === undefined || takesSampling(caps, options.reasoningEffort)) return undefined;
  const why = caps.sampling === 'reasoning-off' ? "the model takes it only at reasoningEffort 'none'" : 'the model takes no temperature';
  return `${formatModelSpec(spec)}: temperature ${spec.temperature} is not sent: ${why}; remove it from the model spec`;
}

/** Writes the warning for `spec` to stderr the first time it is seen in this process. */
export function warnUnsentTemperature(spec: Pick<ModelSpec, 'provider' | 'model' | 'temperature'>, options: OpenAIRequestOptions, write?: (line: string) => void): void {
  warnOncePerSpec(unsentTemperatureWarning(spec, options), write);
}

/** The system prompt with the answer's schema spelled out, for a server that cannot enforce it. */
export function withSchemaStated(system: string | undefined, schema: StructuredOutput): string {
  const stated = schemaInstruction(schema.jsonSchema);
  return system ? `${system}\n\n${stated}` : stated;
}

export function toOpenAIMessages(req: Pick<CompletionRequest, 'system' | 'messages'>): WireMessage[] {
  const out: WireMessage[] = [];
  if (req.system) out.push({ role: 'system', content: req.system });
  for (const m of req.messages) out.push(toWireMessage(m));
  return out;
}

function toWireMessage(m: ChatMessage): WireMessage {
  switch (m.role) {
    case 'system':
      return { role: m.role, content: m.content };
    case 'user':
      return { role: 'user', content: toOpenAIUserContent(m.content, m.attachments) };
    case 'assistant':
      if (!m.toolCalls || m.toolCalls.length === 0) return { role: 'assistant', content: m.content };
      return {
        role: 'assistant',
        content: m.content === '' ? null : m.content,
        tool_calls: m.toolCalls.map((c) => ({
          id: c.id,
          type: 'function',
          function: { name: c.name, arguments: typeof c.args === 'string' ? c.args : JSON.stringify(c.args ?? {}) },
        })),
      };
    case 'tool':
      // Chat Completions has no error flag on tool results: say it in the content.
      return { role: 'tool', tool_call_id: m.toolCallId, content: m.isError ? `Error: ${m.content}` : m.content };
  }
}

export function fromOpenAIUsage(u: OpenAI.CompletionUsage | undefined | null): TokenUsage {
  return {
    inputTokens: u?.prompt_tokens ?? 0,
    outputTokens: u?.completion_tokens ?? 0,
    cachedInputTokens: u?.prompt_tokens_details?.cached_tokens ?? 0,
    reasoningTokens: u?.completion_tokens_details?.reasoning_tokens ?? 0,
  };
}

const FINISH: Record<string, string> = { content_filter: 'refusal', function_call: 'tool_calls' };

export function fromOpenAICompletion(c: OpenAI.ChatCompletion): CompletionResponse {
  const choice = Array.isArray(c?.choices) ? c.choices[0] : undefined;
  if (!choice || typeof choice.message !== 'object' || choice.message === null) {
    throw malformed('openai', 'no choices[0].message in the completion');
  }
  const msg = choice.message;
  const toolCalls: ProviderToolCall[] = [];
  for (const call of msg.tool_calls ?? []) {
    if (call.type !== 'function') continue;
    toolCalls.push({ id: call.id, name: call.function.name, args: parseArgs(call.function.arguments) });
  }
  const reason = choice.finish_reason ?? 'stop';
  // A structured-output refusal comes as `message.refusal` with finish_reason `stop`: it is a refusal.
  const refusal = typeof msg.refusal === 'string' && msg.refusal !== '' ? msg.refusal : undefined;
  return withRawBody(
    {
      text: msg.content ?? refusal ?? '',
      toolCalls,
      usage: fromOpenAIUsage(c.usage),
      finishReason: refusal !== undefined ? 'refusal' : (FINISH[reason] ?? reason),
      ...(refusal !== undefined ? { refusal } : {}),
      model: c.model,
    },
    c,
  );
}

function parseArgs(raw: string): unknown {
  if (raw.trim() === '') return {};
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}
