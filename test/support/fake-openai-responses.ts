/**
 * The Responses API (`POST /v1/responses`) of the fake OpenAI server, in the real wire format:
 * output items `message` / `function_call`, `usage` with `input_tokens_details` and
 * `output_tokens_details`; streamed as the API's server-sent events when the request says
 * `stream: true`. Like the real API it rejects (400) a `function_call_output` that answers no
 * `function_call` of the input. Uses the same scripted replies as Chat Completions.
 *
 * A reasoning model's response starts with a `reasoning` item; asked for it (`include:
 * ['reasoning.encrypted_content']`) the item carries its encrypted content. As the real API does,
 * the fake refuses (400), read 2026-12-04 from the `openai` SDK 6.49's types and doc comments (the
 * body fields of `ResponseCreateParams`; `include: ['reasoning.encrypted_content']` for stateless use
 * with `store: false`), the OpenAI Cookbook's reasoning-items notebook, and the API's error texts as
 * quoted in OpenAI community threads:
 * - a `function_call` item it answered sent back without the `reasoning` item that preceded it;
 * - a reasoning item whose `encrypted_content` is not what it answered;
 * - a top-level field the API reference does not list;
 * - `include: ['reasoning.encrypted_content']` for a model that does not reason;
 * - a strict function tool whose schema is outside the strict subset.
 * (A `reasoning.effort` the model does not take is refused by fake-openai-rules.ts, as for Chat.)
 * `ResponsesMemory` is one fake server's memory of what it answered.
 */
import { createHash } from 'node:crypto';
import { refuseResponsesParts } from './fake-openai-parts.js';
import { fakeModelRule, refuseStrictSchema, type OpenAIRefusal } from './fake-openai-rules.js';
import { MALFORMED_BODY, retryHeaders, type FakeUsage, type HttpReply, type Scripted } from './fake-server.js';

/** The error reply of the OpenAI wire (fake-openai.ts's), passed in to keep one copy. */
export type OpenAIErrorReply = (status: number, message: string | undefined, index: number, key?: string, headers?: Record<string, string>) => HttpReply;

export interface ResponsesOptions {
  model?: string;
}

/** What one fake server answered: each function call's reasoning item, each reasoning item's encrypted content. */
export class ResponsesMemory {
  readonly reasoningOfCall = new Map<string, string>();
  readonly encrypted = new Map<string, string>();
}

/** The body fields `POST /v1/responses` takes (the SDK's `ResponseCreateParamsBase`, openai 6.49, read 2026-12-04). */
const TOP_LEVEL = new Set([
  'background',
  'context_management',
  'conversation',
  'include',
  'input',
  'instructions',
  'max_output_tokens',
  'metadata',
  'model',
  'moderation',
  'parallel_tool_calls',
  'previous_response_id',
  'prompt',
  'prompt_cache_key',
  'prompt_cache_options',
  'prompt_cache_retention',
  'reasoning',
  'safety_identifier',
  'service_tier',
  'store',
  'stream',
  'stream_options',
  'temperature',
  'text',
  'tool_choice',
  'tools',
  'top_logprobs',
  'top_p',
  'truncation',
  'user',
]);

/** The HTTP reply to one scripted answer, once fake-openai.ts has checked the key and the body. */
export function responsesHttp(s: Scripted, body: any, index: number, options: ResponsesOptions, key: string, error: OpenAIErrorReply, memory: ResponsesMemory): HttpReply {
  if ('drop' in s) return { drop: true };
  if ('endless' in s) return { endless: true };
  if ('malformed' in s) return { status: 200, body: MALFORMED_BODY };
  if ('status' in s) return error(s.status, s.message, index, key, retryHeaders(s));
  const response = responseObject(s, body, index, options, memory);
  const headers = { 'x-request-id': `req_fake${index}` };
  if (body?.stream === true) return { status: 200, headers: { ...headers, 'content-type': 'text/event-stream' }, body: eventStream(response) };
  return { status: 200, headers, body: JSON.stringify(response) };
}

export function responseObject(s: Scripted, body: any, index: number, options: ResponsesOptions, memory = new ResponsesMemory()) {
  const model = ('model' in s && s.model) || options.model || String(body?.model ?? 'gpt-fake');
  const output: unknown[] = [];
  const reasoningId = `rs_fake${index}`;
  if (fakeModelRule(String(body?.model)).reasoning) {
    // The encrypted content stands for the reasoning: here a digest of what it answered, so an edit shows.
    const sealed = Buffer.from(
      createHash('sha256')
        .update(`${reasoningId}:${JSON.stringify(body?.input ?? null)}`)
        .digest('hex'),
    ).toString('base64');
    const withContent = Array.isArray(body?.include) && body.include.includes('reasoning.encrypted_content');
    if (withContent) memory.encrypted.set(reasoningId, sealed);
    output.push({ id: reasoningId, type: 'reasoning', summary: [], ...(withContent ? { encrypted_content: sealed } : {}) });
  }
  const text = 'json' in s ? JSON.stringify(s.json) : 'text' in s ? s.text : undefined;
  const finish = 'finishReason' in s ? s.finishReason : undefined;
  const incomplete = finish === 'length' ? 'max_output_tokens' : finish === 'content_filter' ? 'content_filter' : undefined;
  if (text !== undefined) output.push(finish === 'refusal' ? refusalMessage(`msg_fake${index}`, text) : message(`msg_fake${index}`, text, incomplete ? 'incomplete' : 'completed'));
  if ('toolCalls' in s) {
    s.toolCalls.forEach((c, i) => {
      if (output[0] !== undefined && (output[0] as { type: string }).type === 'reasoning') memory.reasoningOfCall.set(`fc_fake${index}_${i}`, reasoningId);
      output.push({
        id: `fc_fake${index}_${i}`,
        type: 'function_call',
        status: 'completed',
        arguments: typeof c.args === 'string' ? c.args : JSON.stringify(c.args),
        call_id: c.id ?? `call_${index}_${i}`,
        name: c.name,
      });
    });
  }
  return {
    id: `resp_fake${index}`,
    object: 'response',
    created_at: Math.floor(Date.now() / 1000),
    status: incomplete ? 'incomplete' : 'completed',
    background: false,
    error: null,
    incomplete_details: incomplete ? { reason: incomplete } : null,
    instructions: body?.instructions ?? null,
    max_output_tokens: body?.max_output_tokens ?? null,
    model,
    output,
    parallel_tool_calls: body?.parallel_tool_calls ?? true,
    previous_response_id: body?.previous_response_id ?? null,
    reasoning: { effort: null, summary: null },
    service_tier: 'default',
    store: body?.store ?? true,
    temperature: body?.temperature ?? 1,
    text: body?.text ?? { format: { type: 'text' } },
    tool_choice: body?.tool_choice ?? 'auto',
    tools: body?.tools ?? [],
    top_p: body?.top_p ?? 1,
    truncation: 'disabled',
    usage: usage('usage' in s ? s.usage : undefined),
    user: null,
    metadata: {},
  };
}

function message(id: string, text: string, status: string) {
  return { id, type: 'message', status, role: 'assistant', content: [{ type: 'output_text', annotations: [], logprobs: [], text }] };
}

function refusalMessage(id: string, refusal: string) {
  return { id, type: 'message', status: 'completed', role: 'assistant', content: [{ type: 'refusal', refusal }] };
}

function usage(u: FakeUsage | undefined) {
  const input = u?.input ?? 10;
  const output = u?.output ?? 5;
  return {
    input_tokens: input,
    input_tokens_details: { cached_tokens: u?.cached ?? 0, cache_write_tokens: u?.cacheWrite ?? 0 },
    output_tokens: output,
    output_tokens_details: { reasoning_tokens: u?.reasoning ?? 0 },
    total_tokens: input + output,
  };
}

/**
 * The streamed form: `response.created`, each output item added / its text deltas / done, then
 * `response.completed` carrying the whole response (usage included), each with a sequence number.
 */
function eventStream(response: ReturnType<typeof responseObject>): string {
  let seq = 0;
  const events: string[] = [];
  const emit = (type: string, data: object) => events.push(`event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: seq++, ...data })}\n\n`);
  const pending = { ...response, status: 'in_progress', output: [], usage: null };
  emit('response.created', { response: pending });
  emit('response.in_progress', { response: pending });
  response.output.forEach((item: any, output_index) => {
    if (item.type === 'reasoning') {
      emit('response.output_item.added', { output_index, item });
    } else if (item.type === 'message') {
      emit('response.output_item.added', { output_index, item: { ...item, status: 'in_progress', content: [] } });
      const part = item.content[0];
      emit('response.content_part.added', { item_id: item.id, output_index, content_index: 0, part: { ...part, text: '' } });
      emit('response.output_text.delta', { item_id: item.id, output_index, content_index: 0, delta: part.text, logprobs: [] });
      emit('response.output_text.done', { item_id: item.id, output_index, content_index: 0, text: part.text, logprobs: [] });
      emit('response.content_part.done', { item_id: item.id, output_index, content_index: 0, part });
    } else {
      emit('response.output_item.added', { output_index, item: { ...item, status: 'in_progress', arguments: '' } });
      emit('response.function_call_arguments.delta', { item_id: item.id, output_index, delta: item.arguments });
      emit('response.function_call_arguments.done', { item_id: item.id, output_index, name: item.name, arguments: item.arguments });
    }
    emit('response.output_item.done', { output_index, item });
  });
  emit(response.status === 'incomplete' ? 'response.incomplete' : 'response.completed', { response });
  return events.join('');
}

/** The checks the real endpoint makes that a framework's mapping could get wrong. */
export function validateResponses(body: any, memory: ResponsesMemory = new ResponsesMemory()): string | OpenAIRefusal | undefined {
  if (!body || typeof body.model !== 'string') return "Missing required parameter: 'model'.";
  const unknown = Object.keys(body).find((k) => !TOP_LEVEL.has(k));
  if (unknown !== undefined) return { message: `Unknown parameter: '${unknown}'.`, param: unknown, code: 'unknown_parameter' };
  if (Array.isArray(body.include) && body.include.includes('reasoning.encrypted_content') && !fakeModelRule(body.model).reasoning) {
    return { message: 'Encrypted content is not supported with this model.', param: 'include', code: 'unsupported_parameter' };
  }
  for (const [i, t] of (Array.isArray(body.tools) ? body.tools : []).entries()) {
    if (t?.type === 'function' && t.strict === true) {
      const refused = refuseStrictSchema(String(t.name), t.parameters, `tools[${i}].parameters`);
      if (refused) return refused;
    }
  }
  const refusedItems = Array.isArray(body.input) ? refuseReasoningItems(body.input, memory) : undefined;
  if (refusedItems) return refusedItems;
  if (body.input === undefined && !body.previous_response_id && !body.conversation) return "Missing required parameter: 'input'.";
  if (!Array.isArray(body.input) || body.previous_response_id || body.conversation) return undefined;
  const calls = new Set<string>();
  for (const [i, item] of body.input.entries()) {
    if (item?.type === 'function_call') {
      if (typeof item.arguments !== 'string') return `Invalid type for 'input[${i}].arguments': expected a string.`;
      calls.add(item.call_id);
    } else if (item?.type === 'function_call_output') {
      if (!calls.has(item.call_id)) return `No tool call found for function call output with call_id ${item.call_id}.`;
      if (typeof item.output !== 'string' && !Array.isArray(item.output)) return `Invalid type for 'input[${i}].output'.`;
    }
  }
  return refuseResponsesParts(body.input);
}

/** Reasoning items as the API checks them: each answered function call with its reasoning item before it, each item's encrypted content as answered. */
function refuseReasoningItems(input: any[], memory: ResponsesMemory): OpenAIRefusal | undefined {
  const seen = new Set<string>();
  for (const [i, item] of input.entries()) {
    if (item?.type === 'reasoning') {
      const answered = memory.encrypted.get(item.id);
      if (answered !== undefined && item.encrypted_content !== answered) {
        return { message: `The encrypted content for item ${String(item.id)} could not be verified.`, param: `input[${i}].encrypted_content`, code: 'invalid_encrypted_content' };
      }
      seen.add(item.id);
    } else if (item?.type === 'function_call' && typeof item.id === 'string') {
      const reasoning = memory.reasoningOfCall.get(item.id);
      if (reasoning !== undefined && !seen.has(reasoning)) {
        return { message: `Item '${item.id}' of type 'function_call' was provided without its required 'reasoning' item: '${reasoning}'.`, param: 'input', code: null };
      }
    }
  }
  return undefined;
}

/** The tool outputs (`function_call_output` items) that Responses requests sent the model, in the order received. */
export function toolOutputsSent(bodies: readonly any[]): unknown[] {
  return bodies.flatMap((b) => (Array.isArray(b?.input) ? (b.input as Array<{ type?: string; output?: unknown }>) : []).filter((i) => i.type === 'function_call_output').map((i) => i.output));
}
