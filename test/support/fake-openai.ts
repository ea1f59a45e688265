/**
 * A fake OpenAI Chat Completions endpoint speaking the real wire format, for the official SDK to
 * talk to through `baseURL`. Like the real API it rejects (400) tool messages that do not answer a
 * tool call of the preceding assistant turn, and what fake-openai-rules.ts lists from OpenAI's docs:
 * sampling parameters and `max_tokens` on reasoning models, a `reasoning_effort` the model does not
 * take, a strict schema outside the supported subset. A `stream: true` request gets the same answer
 * as server-sent events (fake-openai-stream.ts). A scripted `{text, finishReason: 'refusal'}` is
 * answered as a structured-output refusal (`message.refusal`), `finishReason: 'length'` as a cut.
 * Image and file content parts are checked as the API does (fake-openai-parts.ts).
 * `POST /v1/embeddings` answers unscripted, validating the body (fake-openai-embeddings.ts).
 */
import {
  asFakeProvider,
  MALFORMED_BODY,
  resolveDelay,
  retryHeaders,
  ScriptQueue,
  startFakeServer,
  type CapturedRequest,
  type FakeProvider,
  type FakeUsage,
  type HttpReply,
  type Script,
  type Scripted,
} from './fake-server.js';
import { asEventStream } from './fake-openai-stream.js';
import { responsesHttp, ResponsesMemory, validateResponses } from './fake-openai-responses.js';
import { FakeOpenAIBatches, type FakeBatchLog, type FakeBatchOptions } from './fake-openai-batch.js';
import { refuseParameters, refuseStrictSchema, type OpenAIRefusal } from './fake-openai-rules.js';
import { refuseContentParts } from './fake-openai-parts.js';
import { embeddingsBody, validateEmbeddings } from './fake-openai-embeddings.js';

export interface FakeOpenAIOptions {
  script?: Script;
  /** Model id reported in replies (default: the requested model). */
  model?: string;
  /** When set, any other key gets a 401 (whose message echoes the key, as OpenAI's does). */
  apiKey?: string;
  /** Awaited before request `index` is answered: a test holds a reply until something else happened. */
  hold?: (index: number) => Promise<void>;
  /** The Batch API (fake-openai-batch.ts): how long a batch stays in progress. */
  batch?: FakeBatchOptions;
}

/** The fake, and what its Batch API was asked (batches created, cancels). */
export type FakeOpenAI = FakeProvider & { batches: FakeBatchLog };

export async function startFakeOpenAI(options: FakeOpenAIOptions = {}): Promise<FakeOpenAI> {
  const queue = new ScriptQueue(options.script);
  const { hold } = options;
  const memory = new ResponsesMemory();
  // A batch line gets what the same request would get live.
  const batches = new FakeOpenAIBatches(
    (body, index, url) => (url === '/v1/responses' ? answerResponses(body, index, queue, options, memory) : answerChat(body, index, queue, options)),
    error,
    options.batch,
  );
  const server = await startFakeServer(
    hold ? async (req, index) => (await hold(index), handle(req, index, queue, options, batches, memory)) : (req, index) => handle(req, index, queue, options, batches, memory),
  );
  return Object.assign(asFakeProvider(server, `${server.origin}/v1`, queue), { batches: batches.log });
}

function answerChat(body: any, index: number, queue: ScriptQueue, options: FakeOpenAIOptions): HttpReply {
  const invalid = validate(body);
  if (invalid) return error(400, invalid, index);
  const scripted = queue.next(body, index);
  if (!scripted) return error(418, `fake openai: no scripted reply for request #${index}`, index);
  return toHttp(resolveDelay(scripted).reply, body, index, options, '');
}

function answerResponses(body: any, index: number, queue: ScriptQueue, options: FakeOpenAIOptions, memory: ResponsesMemory): HttpReply {
  const invalid = validateResponses(body, memory) ?? refuseResponsesParameters(body);
  if (invalid) return error(400, invalid, index);
  const scripted = queue.next(body, index);
  if (!scripted) return error(418, `fake openai: no scripted reply for request #${index}`, index);
  return responsesHttp(resolveDelay(scripted).reply, body, index, options, '', error, memory);
}

function handle(req: CapturedRequest, index: number, queue: ScriptQueue, options: FakeOpenAIOptions, batches: FakeOpenAIBatches, memory: ResponsesMemory): HttpReply | Promise<HttpReply> {
  const path = req.path.split('?')[0]!;
  if (FakeOpenAIBatches.handles(path)) {
    const key = (req.headers['authorization'] ?? '').replace(/^Bearer\s+/i, '');
    if (!key || (options.apiKey !== undefined && key !== options.apiKey)) return error(401, undefined, index, key);
    return batches.handle(req, index);
  }
  if (req.method === 'POST' && path === '/v1/embeddings') return embeddings(req, index, options);
  const responses = req.method === 'POST' && path === '/v1/responses';
  if (!responses && (req.method !== 'POST' || path !== '/v1/chat/completions')) {
    return error(404, `Unknown request URL: ${req.method} ${req.path}`, index);
  }
  const key = (req.headers['authorization'] ?? '').replace(/^Bearer\s+/i, '');
  if (!key || (options.apiKey !== undefined && key !== options.apiKey)) return error(401, undefined, index, key);
  const invalid = responses ? (validateResponses(req.body, memory) ?? refuseResponsesParameters(req.body)) : validate(req.body);
  if (invalid) return error(400, invalid, index);

  const scripted = queue.next(req.body, index);
  if (!scripted) return error(418, `fake openai: no scripted reply for request #${index}`, index);
  const { reply, delayMs } = resolveDelay(scripted);
  if (responses) return { ...responsesHttp(reply, req.body, index, options, key, error, memory), delayMs };
  const http = toHttp(reply, req.body, index, options, key);
  return { ...(req.body?.stream === true ? asEventStream(http, req.body) : http), delayMs };
}

/** `POST /v1/embeddings` (fake-openai-embeddings.ts): no script, the answer follows from the input. */
function embeddings(req: CapturedRequest, index: number, options: FakeOpenAIOptions): HttpReply {
  const key = (req.headers['authorization'] ?? '').replace(/^Bearer\s+/i, '');
  if (!key || (options.apiKey !== undefined && key !== options.apiKey)) return error(401, undefined, index, key);
  const refused = validateEmbeddings(req.body);
  if (refused) return error(refused.status, refused.detail, index);
  return { status: 200, headers: { 'x-request-id': `req_fake${index}` }, body: embeddingsBody(req.body) };
}

function toHttp(s: Scripted, body: any, index: number, options: FakeOpenAIOptions, key: string): HttpReply {
  if ('drop' in s) return { drop: true };
  if ('endless' in s) return { endless: true };
  if ('malformed' in s) return { status: 200, body: MALFORMED_BODY };
  if ('status' in s) return error(s.status, s.message, index, key, retryHeaders(s));
  const model = ('model' in s && s.model) || options.model || String(body?.model ?? 'gpt-fake');
  let content: string | null = null;
  let refusal: string | null = null;
  let toolCalls: unknown[] | undefined;
  let finish = 'stop';
  if ('json' in s) content = JSON.stringify(s.json);
  else if ('toolCalls' in s) {
    content = s.text ?? null;
    toolCalls = s.toolCalls.map((c, i) => ({
      id: c.id ?? `call_${index}_${i}`,
      type: 'function',
      function: { name: c.name, arguments: typeof c.args === 'string' ? c.args : JSON.stringify(c.args) },
    }));
    finish = 'tool_calls';
  } else if ('text' in s && s.finishReason === 'refusal') {
    // A structured-output refusal: the message carries `refusal`, no content, and finishes with `stop`.
    refusal = s.text;
  } else if ('text' in s) {
    content = s.text;
    finish = s.finishReason ?? 'stop';
  }
  const completion = {
    id: `chatcmpl-fake${index}`,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content,
          refusal,
          annotations: [],
          ...(toolCalls ? { tool_calls: toolCalls } : {}),
        },
        logprobs: null,
        finish_reason: finish,
      },
    ],
    usage: usage('usage' in s ? s.usage : undefined),
    service_tier: 'default',
    system_fingerprint: 'fp_fake',
  };
  return { status: 200, headers: { 'x-request-id': `req_fake${index}` }, body: JSON.stringify(completion) };
}

function usage(u: FakeUsage | undefined) {
  const prompt = u?.input ?? 10;
  const completion = u?.output ?? 5;
  return {
    prompt_tokens: prompt,
    completion_tokens: completion,
    total_tokens: prompt + completion,
    prompt_tokens_details: { cached_tokens: u?.cached ?? 0, audio_tokens: 0 },
    completion_tokens_details: {
      reasoning_tokens: u?.reasoning ?? 0,
      audio_tokens: 0,
      accepted_prediction_tokens: 0,
      rejected_prediction_tokens: 0,
    },
  };
}

const ERROR_TYPES: Record<number, { type: string; code: string | null; message: string }> = {
  400: { type: 'invalid_request_error', code: null, message: 'Invalid request.' },
  401: { type: 'invalid_request_error', code: 'invalid_api_key', message: '' },
  403: { type: 'invalid_request_error', code: 'unsupported_country_region_territory', message: 'Country, region, or territory not supported' },
  404: { type: 'invalid_request_error', code: 'model_not_found', message: 'The model does not exist or you do not have access to it.' },
  429: { type: 'requests', code: 'rate_limit_exceeded', message: 'Rate limit reached for requests. Please try again shortly.' },
  500: { type: 'server_error', code: null, message: 'The server had an error while processing your request. Sorry about that!' },
};

function error(status: number, message: string | OpenAIRefusal | undefined, index: number, key = '', headers: Record<string, string> = {}): HttpReply {
  const known = ERROR_TYPES[status] ?? { type: status >= 500 ? 'server_error' : 'invalid_request_error', code: null, message: `HTTP ${status}` };
  // A refusal of one parameter names it (`param`) and says why (`code`), as the real API does.
  const detail = typeof message === 'object' ? message : undefined;
  const text = detail?.message ?? message ?? (status === 401 ? `Incorrect API key provided: ${key}. You can find your API key at https://platform.openai.com/account/api-keys.` : known.message);
  return {
    status,
    headers: { 'x-request-id': `req_fake${index}`, ...headers },
    body: JSON.stringify({ error: { message: text, type: known.type, param: detail?.param ?? null, code: detail ? detail.code : known.code } }),
  };
}

/** The Responses API's own refusals of the same rules: `reasoning.effort`, `text.format` strict schemas. */
function refuseResponsesParameters(body: any): OpenAIRefusal | undefined {
  const format = body?.text?.format;
  if (format?.type === 'json_schema' && format.strict === true) {
    const refused = refuseStrictSchema(String(format.name), format.schema, 'text.format');
    if (refused) return refused;
  }
  return refuseParameters(body, body?.reasoning?.effort, 'responses');
}

/** The checks the real endpoint makes that our mapping could get wrong. */
function validate(body: any): string | OpenAIRefusal | undefined {
  if (!body || typeof body.model !== 'string') return 'you must provide a model parameter';
  if (!Array.isArray(body.messages) || body.messages.length === 0) return "'messages' must be a non-empty array";
  let open: Set<string> | undefined;
  for (const [i, m] of body.messages.entries()) {
    if (m.role === 'tool') {
      if (!open || !open.has(m.tool_call_id)) {
        return `Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'. (messages[${i}])`;
      }
      open.delete(m.tool_call_id);
      continue;
    }
    if (open && open.size > 0) {
      return `An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. Missing: ${[...open].join(', ')}`;
    }
    open = m.role === 'assistant' && Array.isArray(m.tool_calls) ? new Set(m.tool_calls.map((c: any) => c.id)) : undefined;
    if (m.role === 'assistant' && m.tool_calls) {
      for (const c of m.tool_calls) {
        if (c.type !== 'function' || typeof c.function?.arguments !== 'string') return `messages[${i}].tool_calls: arguments must be a JSON string`;
      }
    }
  }
  if (open && open.size > 0) return `tool_calls without tool responses: ${[...open].join(', ')}`;
  const badPart = refuseContentParts(body.messages);
  if (badPart) return badPart;
  if (body.response_format?.type === 'json_schema' && !body.response_format.json_schema?.name) {
    return "Missing required parameter: 'response_format.json_schema.name'.";
  }
  if (body.response_format?.type === 'json_schema' && body.response_format.json_schema.strict === true) {
    const refused = refuseStrictSchema(body.response_format.json_schema.name, body.response_format.json_schema.schema);
    if (refused) return refused;
  }
  return refuseParameters(body, body.reasoning_effort, 'chat');
}
