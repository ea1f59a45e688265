/**
 * Pure mapping of our requests onto the OpenAI Responses API (`POST /v1/responses`), typed by the
 * `openai` SDK's own `ResponseCreateParamsNonStreaming` (openai 6.49). What the API takes is read
 * from that SDK's types and their doc comments (read 2026-12-04): `include:
 * ['reasoning.encrypted_content']` gives reasoning items an encrypted form for stateless use (`store:
 * false`); reasoning items go back in `input` on later turns when the caller manages the context;
 * function tools carry `strict`; messages take `input_text` / `input_image` / `input_file` parts.
 * The OpenAI Cookbook's reasoning-items notebook (stored copy, read 2026-12-04) says the same of
 * reasoning items in a tool loop. OpenAI's own guide pages were not among the stored docs that day.
 */
import type OpenAI from 'openai';
import { dataUrlOf, type MediaPart } from '../../../core/content-parts.js';
import { capabilitiesOf } from '../../capability-lookup.js';
import type { ModelSpec } from '../../model-spec.js';
import type { ChatMessage, CompletionRequest, ProviderTool } from '../../types.js';
import { isSdkEffort, openAIRequestOptions, takesSampling, withSchemaStated, type OpenAIRequestOptions } from '../openai/openai-wire.js';
import { OPENAI_TABLE } from '../openai/facts.js';
import { fitsStrictMode } from './strict-schema.js';
import { RESPONSES_WIRE_ID } from './wire-id.js';

type Params = OpenAI.Responses.ResponseCreateParamsNonStreaming;
type InputItem = OpenAI.Responses.ResponseInputItem;
type InputContent = OpenAI.Responses.ResponseInputContent;

/** What a model spec sends for `req` on the Responses API, live or as a batch line: the spec's settings are the defaults. */
export function responsesParams(spec: ModelSpec, req: CompletionRequest, options: OpenAIRequestOptions = openAIRequestOptions(spec)): Params {
  return toResponsesParams(spec.model, req, options);
}

/**
 * One Responses body. Nothing is stored on OpenAI's side (`store: false`): a reasoning model's
 * reasoning items come back encrypted (`include: ['reasoning.encrypted_content']`) and go back
 * unchanged in the next request of a tool loop (without them the API refuses the function call, by
 * its error text as quoted in OpenAI community threads, and the model would reason again from nothing). The effort is sent only when the spec
 * sets one: never a `none` it did not ask for.
 */
export function toResponsesParams(model: string, req: CompletionRequest, options: OpenAIRequestOptions = {}): Params {
  const caps = options.capabilities ?? capabilitiesOf(OPENAI_TABLE, model);
  const textSchema = req.schema !== undefined && caps.structuredOutput === 'text';
  const instructions = textSchema ? withSchemaStated(req.system, req.schema!) : req.system;
  const params: Params = { model, input: toResponsesInput(req.messages), store: false };
  if (instructions) params.instructions = instructions;
  // A model that does not reason has no reasoning to include: the API refuses the include for it.
  if (caps.thinking !== 'off') params.include = ['reasoning.encrypted_content'];
  if (req.tools && req.tools.length > 0) {
    params.tools = req.tools.map(toFunctionTool);
    params.parallel_tool_calls = true;
  }
  if (req.toolChoice !== undefined) params.tool_choice = typeof req.toolChoice === 'string' ? req.toolChoice : { type: 'function', name: req.toolChoice.name };
  if (req.schema && !textSchema) params.text = { format: { type: 'json_schema', name: req.schema.name, schema: req.schema.jsonSchema, strict: true } };
  const effort = options.reasoningEffort;
  if (effort !== undefined && isSdkEffort(effort)) params.reasoning = { effort };
  const temperature = req.temperature ?? options.temperature;
  if (temperature !== undefined && takesSampling(caps, effort)) params.temperature = temperature;
  const maxTokens = req.maxTokens ?? options.maxTokens;
  if (maxTokens !== undefined) params.max_output_tokens = maxTokens;
  return params;
}

/** A function tool, strict where its schema is in the strict subset (else the API would refuse it). */
function toFunctionTool(t: ProviderTool): OpenAI.Responses.FunctionTool {
  return { type: 'function', name: t.name, ...(t.description !== undefined ? { description: t.description } : {}), parameters: t.parameters, strict: fitsStrictMode(t.parameters) };
}

export function toResponsesInput(messages: readonly ChatMessage[]): InputItem[] {
  return messages.flatMap(toInputItems);
}

function toInputItems(m: ChatMessage): InputItem[] {
  switch (m.role) {
    case 'system':
      return [{ role: 'system', content: m.content }];
    case 'user':
      return [{ role: 'user', content: toUserContent(m.content, m.attachments) }];
    case 'assistant':
      // The turn as the API sent it: reasoning items in their place before the calls they led to.
      if (m.providerBlocks?.wire === RESPONSES_WIRE_ID) return m.providerBlocks.blocks as InputItem[];
      return [
        ...(m.content !== '' || !m.toolCalls?.length ? [{ role: 'assistant' as const, content: m.content }] : []),
        ...(m.toolCalls ?? []).map((c): InputItem => ({ type: 'function_call', call_id: c.id, name: c.name, arguments: typeof c.args === 'string' ? c.args : JSON.stringify(c.args ?? {}) })),
      ];
    case 'tool':
      // The wire has no error flag on a function's output: say it in the output.
      return [{ type: 'function_call_output', call_id: m.toolCallId, output: m.isError ? `Error: ${m.content}` : m.content }];
  }
}

/**
 * A user message's text and attachments as input content parts: an image as `input_image` (a data
 * URL, or the http(s) URL the API fetches), a PDF as `input_file` with its data URL and file name.
 */
function toUserContent(text: string, attachments: readonly MediaPart[] | undefined): string | InputContent[] {
  if (!attachments?.length) return text;
  const parts: InputContent[] = text !== '' ? [{ type: 'input_text', text }] : [];
  for (const a of attachments) {
    if (a.type === 'file') parts.push({ type: 'input_file', filename: a.name, file_data: dataUrlOf(a) });
    else parts.push({ type: 'input_image', detail: 'auto', image_url: 'url' in a ? a.url : dataUrlOf(a) });
  }
  return parts;
}
