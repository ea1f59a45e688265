/**
 * A fake Anthropic Messages endpoint speaking the real wire format, for the official SDK to talk
 * to through `baseURL`. Like the real API it rejects (400) tool_use blocks not answered by
 * tool_result blocks at the start of the very next user message, and a forced tool that is not declared.
 */
import { handleBatch, type FakeBatchLog, type FakeBatchOptions } from './fake-anthropic-batch.js';
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

export interface FakeAnthropicOptions {
  script?: Script;
  /** Model id reported in replies (default: the requested model). */
  model?: string;
  /** When set, any other key (x-api-key or bearer) gets a 401. */
  apiKey?: string;
  /** How the Message Batches endpoints behave (fake-anthropic-batch.ts). */
  batch?: FakeBatchOptions;
}

/** The fake, plus what its Message Batches endpoints were asked to do. */
export interface FakeAnthropic extends FakeProvider {
  batches: FakeBatchLog;
}

export async function startFakeAnthropic(options: FakeAnthropicOptions = {}): Promise<FakeAnthropic> {
  const queue = new ScriptQueue(options.script);
  const batches: FakeBatchLog = { created: [], cancelled: [], createAttempts: 0, state: new Map() };
  const server = await startFakeServer((req, index) => handle(req, index, queue, options, batches, server.origin));
  // Onto the object itself: a spread would freeze its live getters (count, bodies) at their first values.
  return Object.assign(asFakeProvider(server, server.origin, queue), { batches });
}

function handle(req: CapturedRequest, index: number, queue: ScriptQueue, options: FakeAnthropicOptions, batches: FakeBatchLog, origin: string): HttpReply {
  const path = req.path.split('?')[0]!;
  const isBatch = path === '/v1/messages/batches' || path.startsWith('/v1/messages/batches/');
  if (!isBatch && (req.method !== 'POST' || path !== '/v1/messages')) {
    return error(404, `Not found: ${req.method} ${req.path}`, index);
  }
  // SDK 1.x sends the key as a bearer token; older clients use x-api-key. The API takes both.
  const key = req.headers['x-api-key'] ?? (req.headers['authorization'] ?? '').replace(/^Bearer\s+/i, '');
  if (!key || (options.apiKey !== undefined && key !== options.apiKey)) return error(401, 'invalid x-api-key', index);
  if (!req.headers['anthropic-version']) return error(400, 'anthropic-version: header is required', index);
  if (isBatch) return handleBatch(req, path, index, { queue, options, log: batches, origin });
  const invalid = validate(req.body);
  if (invalid) return error(400, invalid, index);

  const scripted = queue.next(req.body, index);
  if (!scripted) return error(418, `fake anthropic: no scripted reply for request #${index}`, index);
  const { reply, delayMs } = resolveDelay(scripted);
  return { ...toHttp(reply, req.body, index, options), delayMs };
}

function toHttp(s: Scripted, body: any, index: number, options: FakeAnthropicOptions): HttpReply {
  if ('drop' in s) return { drop: true };
  if ('endless' in s) return { endless: true };
  if ('malformed' in s) return { status: 200, body: MALFORMED_BODY };
  if ('status' in s) return error(s.status, s.message, index, retryHeaders(s));
  return { status: 200, headers: { 'request-id': `req_fake${index}` }, body: JSON.stringify(toMessage(s, body, index, options)) };
}

/** The Message a scripted answer (text, tool calls or structured JSON) becomes: live or inside a batch. */
export function toMessage(s: Scripted, body: any, index: number, options: FakeAnthropicOptions) {
  const model = ('model' in s && s.model) || options.model || String(body?.model ?? 'claude-fake');
  const content: unknown[] = [];
  let stop = 'end_turn';
  if ('json' in s) {
    const name = body?.tool_choice?.type === 'tool' ? body.tool_choice.name : 'structured_output';
    content.push({ type: 'tool_use', id: `toolu_fake${index}_0`, name, input: s.json });
    stop = 'tool_use';
  } else if ('toolCalls' in s) {
    if (s.text) content.push({ type: 'text', text: s.text });
    s.toolCalls.forEach((c, i) => content.push({ type: 'tool_use', id: c.id ?? `toolu_fake${index}_${i}`, name: c.name, input: c.args }));
    stop = 'tool_use';
  } else if ('text' in s) {
    content.push({ type: 'text', text: s.text });
    stop = s.finishReason ?? 'end_turn';
  }
  const message = {
    id: `msg_fake${index}`,
    type: 'message',
    role: 'assistant',
    model,
    content,
    stop_reason: stop,
    stop_sequence: null,
    usage: usage('usage' in s ? s.usage : undefined),
  };
  return message;
}

function usage(u: FakeUsage | undefined) {
  return {
    input_tokens: u?.input ?? 10,
    output_tokens: u?.output ?? 5,
    cache_read_input_tokens: u?.cached ?? 0,
    cache_creation_input_tokens: u?.cacheWrite ?? 0,
    cache_creation: { ephemeral_5m_input_tokens: (u?.cacheWrite ?? 0) - (u?.cacheWrite1h ?? 0), ephemeral_1h_input_tokens: u?.cacheWrite1h ?? 0 },
    ...(u?.reasoning !== undefined ? { output_tokens_details: { thinking_tokens: u.reasoning } } : {}),
    service_tier: 'standard',
  };
}

export const ERROR_TYPES: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  500: 'api_error',
  529: 'overloaded_error',
};

export function error(status: number, message: string | undefined, index: number, headers: Record<string, string> = {}): HttpReply {
  return { status, headers: { 'request-id': `req_fake${index}`, ...headers }, body: JSON.stringify(errorBody(status, message, index)) };
}

/** The API's error object: the body of an error response, and an errored batch result's `error`. */
export function errorBody(status: number, message: string | undefined, index: number) {
  const type = ERROR_TYPES[status] ?? (status >= 500 ? 'api_error' : 'invalid_request_error');
  return { type: 'error', error: { type, message: message ?? type.replace(/_/g, ' ') }, request_id: `req_fake${index}` };
}

const blocksOf = (m: any): any[] => (Array.isArray(m?.content) ? m.content : [{ type: 'text', text: m?.content }]);

/** The checks the real endpoint makes that our mapping could get wrong. */
export function validate(body: any): string | undefined {
  if (!body || typeof body.model !== 'string') return 'model: Field required';
  if (typeof body.max_tokens !== 'number') return 'max_tokens: Field required';
  if (!Array.isArray(body.messages) || body.messages.length === 0) return 'messages: at least one message is required';
  const tools = new Set<string>((body.tools ?? []).map((t: any) => t.name));
  if (body.tool_choice?.type === 'tool' && !tools.has(body.tool_choice.name)) {
    return `tool_choice: tool '${body.tool_choice.name}' not found in tools`;
  }
  const cacheInvalid = validateCacheControl(body);
  if (cacheInvalid) return cacheInvalid;
  let pending: string[] = [];
  for (const [i, m] of body.messages.entries()) {
    if (m.role !== 'user' && m.role !== 'assistant') return `messages.${i}.role: Input should be 'user' or 'assistant'`;
    const blocks = blocksOf(m);
    if (m.role === 'assistant') {
      if (pending.length > 0) return `messages.${i}: tool_use ids were found without tool_result blocks immediately after: ${pending.join(', ')}`;
      pending = blocks.filter((b) => b.type === 'tool_use').map((b) => b.id);
      continue;
    }
    let seenOther = false;
    for (const b of blocks) {
      if (b.type !== 'tool_result') {
        seenOther = true;
        continue;
      }
      if (seenOther) return `messages.${i}: tool_result blocks must come first in the user message`;
      if (!pending.includes(b.tool_use_id)) return `messages.${i}: unexpected tool_use_id found in tool_result blocks: ${b.tool_use_id}`;
      pending = pending.filter((id) => id !== b.tool_use_id);
    }
    if (pending.length > 0) return `messages.${i}: tool_use ids were found without tool_result blocks immediately after: ${pending.join(', ')}`;
  }
  return undefined;
}

/** Prompt-cache marks as the real endpoint takes them: `ephemeral` only, on non-empty text, at most 4 per request. */
function validateCacheControl(body: any): string | undefined {
  const blocks = [...(body.tools ?? []), ...(Array.isArray(body.system) ? body.system : []), ...body.messages.flatMap(blocksOf)];
  const marked = blocks.filter((b) => b?.cache_control !== undefined && b.cache_control !== null);
  if (marked.length > 4) return `A maximum of 4 blocks with cache_control may be provided. Found ${marked.length}.`;
  for (const b of marked) {
    const { type, ttl, ...rest } = b.cache_control;
    if (type !== 'ephemeral' || Object.keys(rest).length > 0) return `cache_control: Input tag '${String(type)}' found using 'type' does not match any of the expected tags: 'ephemeral'`;
    if (ttl !== undefined && ttl !== '5m' && ttl !== '1h') return `cache_control.ttl: Input should be '5m' or '1h'`;
    if (b.type === 'text' && (typeof b.text !== 'string' || b.text === '')) return 'cache_control cannot be set for empty text blocks';
  }
  return undefined;
}
