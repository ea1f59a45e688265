/**
 * The Responses API (`POST /v1/responses`) of the fake OpenAI server, in the real wire format:
 * output items `message` / `function_call`, `usage` with `input_tokens_details` and
 * `output_tokens_details`; streamed as the API's server-sent events when the request says
 * `stream: true`. Like the real API it rejects (400) a `function_call_output` that answers no
 * `function_call` of the input. Uses the same scripted replies as Chat Completions.
 */
import { refuseResponsesParts } from './fake-openai-parts.js';
import { MALFORMED_BODY, retryHeaders, type FakeUsage, type HttpReply, type Scripted } from './fake-server.js';

/** The error reply of the OpenAI wire (fake-openai.ts's), passed in to keep one copy. */
export type OpenAIErrorReply = (status: number, message: string | undefined, index: number, key?: string, headers?: Record<string, string>) => HttpReply;

export interface ResponsesOptions {
  model?: string;
}

/** The HTTP reply to one scripted answer, once fake-openai.ts has checked the key and the body. */
export function responsesHttp(s: Scripted, body: any, index: number, options: ResponsesOptions, key: string, error: OpenAIErrorReply): HttpReply {
  if ('drop' in s) return { drop: true };
  if ('endless' in s) return { endless: true };
  if ('malformed' in s) return { status: 200, body: MALFORMED_BODY };
  if ('status' in s) return error(s.status, s.message, index, key, retryHeaders(s));
  const response = responseObject(s, body, index, options);
  const headers = { 'x-request-id': `req_fake${index}` };
  if (body?.stream === true) return { status: 200, headers: { ...headers, 'content-type': 'text/event-stream' }, body: eventStream(response) };
  return { status: 200, headers, body: JSON.stringify(response) };
}

function responseObject(s: Scripted, body: any, index: number, options: ResponsesOptions) {
  const model = ('model' in s && s.model) || options.model || String(body?.model ?? 'gpt-fake');
  const output: unknown[] = [];
  const text = 'json' in s ? JSON.stringify(s.json) : 'text' in s ? s.text : undefined;
  const incomplete = 'finishReason' in s && s.finishReason === 'length';
  if (text !== undefined) output.push(message(`msg_fake${index}`, text, incomplete ? 'incomplete' : 'completed'));
  if ('toolCalls' in s) {
    s.toolCalls.forEach((c, i) => {
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
    incomplete_details: incomplete ? { reason: 'max_output_tokens' } : null,
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
    if (item.type === 'message') {
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
export function validateResponses(body: any): string | undefined {
  if (!body || typeof body.model !== 'string') return "Missing required parameter: 'model'.";
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
