/**
 * A fake Anthropic Messages endpoint speaking the real wire format, for the official SDK to talk
 * to through `baseURL`. Like the real API (version 2026-10-21) it answers 400
 * `invalid_request_error` to: any body field the API does not define (temperature, top_p and top_k
 * included: "temperature: Extra inputs are not permitted"); forced tool use on the models that
 * refuse it; `output_config.format` on a model without structured outputs, or with a schema outside
 * the supported subset; a tool loop on a thinking model whose last assistant turn lost its thinking
 * block, or a thinking block it did not issue or that was edited; tool_use blocks not answered by
 * tool_result blocks at the start of the very next user message; a forced tool that is not declared;
 * an image or document block of an unknown media type or malformed base64 (fake-anthropic-parts.ts).
 * What it knows of models is its own (fake-anthropic-models.ts), never the project's table.
 * Structured answers come back as the docs say: the JSON as the text under `output_config.format`,
 * the forced tool's input otherwise; a thinking model's replies start with a signed thinking block.
 */
import { createHash } from 'node:crypto';
import { handleBatch, type BatchContext, type FakeBatchLog, type FakeBatchOptions } from './fake-anthropic-batch.js';
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
import { knownField, outputSchemaProblem, refusesForcedTool, takesOutputFormat, thinksByDefault } from './fake-anthropic-models.js';
import { refuseMediaBlocks } from './fake-anthropic-parts.js';

export interface FakeAnthropicOptions {
  script?: Script;
  /** Model id reported in replies (default: the requested model). */
  model?: string;
  /** When set, any other key (x-api-key or bearer) gets a 401. */
  apiKey?: string;
  /** How the Message Batches endpoints behave (fake-anthropic-batch.ts). */
  batch?: FakeBatchOptions;
  /**
   * What a thinking model's replies start with: a `thinking` block (this text, default a short
   * note; `''` as at display "omitted"), then a `redacted_thinking` block when `redacted`.
   * `false`: no thinking blocks (the model thinks, but this fake says nothing of it).
   */
  thinking?: { text?: string; redacted?: boolean } | false;
}

/** The thinking blocks this fake issued: a replayed block must be one of them, unchanged. */
export interface FakeAnthropicState {
  /** signature -> the thinking text it was issued with */
  signatures: Map<string, string>;
  redacted: Set<string>;
}

/** The fake, plus what its Message Batches endpoints were asked to do. */
export interface FakeAnthropic extends FakeProvider {
  batches: FakeBatchLog;
  /** The thinking blocks it issued (a replay is checked against them). */
  thinking: FakeAnthropicState;
}

export async function startFakeAnthropic(options: FakeAnthropicOptions = {}): Promise<FakeAnthropic> {
  const queue = new ScriptQueue(options.script);
  const batches: FakeBatchLog = { created: [], cancelled: [], createAttempts: 0, state: new Map() };
  const state: FakeAnthropicState = { signatures: new Map(), redacted: new Set() };
  const server = await startFakeServer((req, index) => handle(req, index, { queue, options, log: batches, origin: server.origin, state }));
  // Onto the object itself: a spread would freeze its live getters (count, bodies) at their first values.
  return Object.assign(asFakeProvider(server, server.origin, queue), { batches, thinking: state });
}

function handle(req: CapturedRequest, index: number, ctx: BatchContext): HttpReply {
  const { queue, options } = ctx;
  const path = req.path.split('?')[0]!;
  const isBatch = path === '/v1/messages/batches' || path.startsWith('/v1/messages/batches/');
  if (!isBatch && (req.method !== 'POST' || path !== '/v1/messages')) {
    return error(404, `Not found: ${req.method} ${req.path}`, index);
  }
  // SDK 1.x sends the key as a bearer token; older clients use x-api-key. The API takes both.
  const key = req.headers['x-api-key'] ?? (req.headers['authorization'] ?? '').replace(/^Bearer\s+/i, '');
  if (!key || (options.apiKey !== undefined && key !== options.apiKey)) return error(401, 'invalid x-api-key', index);
  if (!req.headers['anthropic-version']) return error(400, 'anthropic-version: header is required', index);
  if (isBatch) return handleBatch(req, path, index, ctx);
  const invalid = validate(req.body, ctx.state, req.headers['anthropic-version']);
  if (invalid) return error(400, invalid, index);

  const scripted = queue.next(req.body, index);
  if (!scripted) return error(418, `fake anthropic: no scripted reply for request #${index}`, index);
  const { reply, delayMs } = resolveDelay(scripted);
  return { ...toHttp(reply, req.body, index, ctx), delayMs };
}

function toHttp(s: Scripted, body: any, index: number, ctx: BatchContext): HttpReply {
  if ('drop' in s) return { drop: true };
  if ('endless' in s) return { endless: true };
  if ('malformed' in s) return { status: 200, body: MALFORMED_BODY };
  if ('status' in s) return error(s.status, s.message, index, retryHeaders(s));
  return { status: 200, headers: { 'request-id': `req_fake${index}` }, body: JSON.stringify(toMessage(s, body, index, ctx)) };
}

/** The Message a scripted answer (text, tool calls or structured JSON) becomes: live or inside a batch. */
export function toMessage(s: Scripted, body: any, index: number, ctx: Pick<BatchContext, 'options' | 'state'>) {
  const { options } = ctx;
  const model = ('model' in s && s.model) || options.model || String(body?.model ?? 'claude-fake');
  const content: unknown[] = thinkingBlocks(body, index, ctx);
  let stop = 'end_turn';
  if ('json' in s) {
    if (body?.output_config?.format) {
      content.push({ type: 'text', text: JSON.stringify(s.json) });
    } else {
      const name = body?.tool_choice?.type === 'tool' ? body.tool_choice.name : 'structured_output';
      content.push({ type: 'tool_use', id: `toolu_fake${index}_0`, name, input: s.json });
      stop = 'tool_use';
    }
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

/** A thinking model's reply opens with a signed thinking block, recorded so a replay can be checked. */
function thinkingBlocks(body: any, index: number, ctx: Pick<BatchContext, 'options' | 'state'>): unknown[] {
  const cfg = ctx.options.thinking;
  if (cfg === false || !thinksByDefault(String(body?.model ?? '')) || body?.thinking?.type === 'disabled') return [];
  const text = cfg?.text ?? `Request ${index}: deciding what to do next.`;
  const signature = `sig_fake_${createHash('sha256').update(`${index}:${text}`).digest('base64url').slice(0, 32)}`;
  ctx.state.signatures.set(signature, text);
  const blocks: unknown[] = [{ type: 'thinking', thinking: text, signature }];
  if (cfg?.redacted) {
    const data = `redacted_fake_${createHash('sha256').update(`redacted:${index}`).digest('base64url').slice(0, 32)}`;
    ctx.state.redacted.add(data);
    blocks.push({ type: 'redacted_thinking', data });
  }
  return blocks;
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

/** The checks the real endpoint makes that our mapping could get wrong, under the request's `anthropic-version`. */
export function validate(body: any, state: FakeAnthropicState, apiVersion: string): string | undefined {
  if (!body || typeof body.model !== 'string') return 'model: Field required';
  if (typeof body.max_tokens !== 'number') return 'max_tokens: Field required';
  if (!Array.isArray(body.messages) || body.messages.length === 0) return 'messages: at least one message is required';
  for (const field of Object.keys(body)) if (!knownField(field, apiVersion)) return `${field}: Extra inputs are not permitted`;
  const forced = body.tool_choice?.type === 'tool' || body.tool_choice?.type === 'any';
  if (forced && refusesForcedTool(body.model)) {
    return `tool_choice: forced tool use (type '${body.tool_choice.type}') is not supported on ${body.model}; use 'auto' or 'none', or output_config.format for structured output`;
  }
  const tools = new Set<string>((body.tools ?? []).map((t: any) => t.name));
  if (body.tool_choice?.type === 'tool' && !tools.has(body.tool_choice.name)) {
    return `tool_choice: tool '${body.tool_choice.name}' not found in tools`;
  }
  const outputInvalid = validateOutputConfig(body);
  if (outputInvalid) return outputInvalid;
  const cacheInvalid = validateCacheControl(body);
  if (cacheInvalid) return cacheInvalid;
  const thinkingInvalid = validateThinking(body, state);
  if (thinkingInvalid) return thinkingInvalid;
  const mediaInvalid = refuseMediaBlocks(body.messages);
  if (mediaInvalid) return mediaInvalid;
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

/** `output_config`: `effort` and `format` only; a format needs a model with structured outputs and a schema in the subset. */
function validateOutputConfig(body: any): string | undefined {
  const oc = body.output_config;
  if (oc === undefined) return undefined;
  for (const key of Object.keys(oc ?? {})) if (key !== 'effort' && key !== 'format') return `output_config.${key}: Extra inputs are not permitted`;
  if (oc.effort != null && !['low', 'medium', 'high', 'xhigh', 'max'].includes(oc.effort)) return `output_config.effort: Input should be 'low', 'medium', 'high', 'xhigh' or 'max'`;
  const format = oc.format;
  if (format == null) return undefined;
  if (!takesOutputFormat(body.model)) return `output_config.format: structured outputs are not supported on ${body.model}`;
  if (format.type !== 'json_schema') return `output_config.format.type: Input should be 'json_schema'`;
  if (typeof format.schema !== 'object' || format.schema === null) return 'output_config.format.schema: Field required';
  return outputSchemaProblem(format.schema);
}

/**
 * Thinking blocks sent back must be ones this fake issued, unchanged; and on a model that thinks, the
 * last assistant turn, when it called tools, must start with its thinking (the API's own message).
 */
function validateThinking(body: any, state: FakeAnthropicState): string | undefined {
  for (const [i, m] of body.messages.entries()) {
    if (m.role !== 'assistant') continue;
    for (const [j, b] of blocksOf(m).entries()) {
      if (b.type === 'thinking' && state.signatures.get(b.signature) !== b.thinking) return `messages.${i}.content.${j}: Invalid \`signature\` in \`thinking\` block`;
      if (b.type === 'redacted_thinking' && !state.redacted.has(b.data)) return `messages.${i}.content.${j}: Invalid \`data\` in \`redacted_thinking\` block`;
    }
  }
  if (!thinksByDefault(body.model) || body.thinking?.type === 'disabled') return undefined;
  const last = body.messages.findLastIndex((m: any) => m.role === 'assistant');
  if (last < 0) return undefined;
  const blocks = blocksOf(body.messages[last]);
  if (!blocks.some((b) => b.type === 'tool_use')) return undefined;
  const first = blocks[0];
  if (first?.type === 'thinking' || first?.type === 'redacted_thinking') return undefined;
  return (
    `messages.${last}.content.0.type: Expected \`thinking\` or \`redacted_thinking\`, but found \`${String(first?.type)}\`. ` +
    'When `thinking` is enabled, a final `assistant` message must start with a thinking block (preceeding the lastmost set of `tool_use` and `tool_result` blocks). ' +
    'We recommend you include thinking blocks from previous turns. To avoid this requirement, disable `thinking`.'
  );
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
