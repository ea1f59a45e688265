import { DRY_RUN_REPLY } from '../providers/create.js';
import { wireOf } from '../providers/registry.js';
import type { ProviderId } from '../providers/types.js';
import type { FetchLike } from '../providers/fetch-like.js';

/**
 * `--dry-run` for the SDK clients of function targets: a fetch that never touches the network and
 * answers in the provider's own wire format (Chat Completions, Responses, Anthropic Messages, JSON
 * or streamed) with the dry-run placeholder and zero usage, so the real SDK parses it as usual.
 */
export function dryRunFetch(provider: ProviderId): FetchLike {
  return async (input, init) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const body = parseBody(init?.body);
    const model = typeof body.model === 'string' ? body.model : 'dry-run';
    const stream = body.stream === true;
    const path = new URL(url).pathname;
    const wire = wireOf(provider);
    if (wire === 'anthropic' && path.endsWith('/messages')) return stream ? sse(anthropicEvents(model)) : json(anthropicMessage(model));
    if (wire === 'openai' && path.endsWith('/chat/completions')) return stream ? sse(chatChunks(model)) : json(chatCompletion(model));
    if (wire === 'openai' && path.endsWith('/responses')) return stream ? sse(responseEvents(model)) : json(response(model));
    return json({ error: { type: 'invalid_request_error', message: `dry run: ${path} has no placeholder answer (the model was not called)` } }, 400);
  };
}

function parseBody(body: unknown): Record<string, unknown> {
  if (typeof body !== 'string') return {};
  try {
    const parsed = JSON.parse(body) as unknown;
    return typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

function json(value: unknown, status = 200): Response {
  return new Response(JSON.stringify(value), { status, headers: { 'content-type': 'application/json' } });
}

function sse(events: Array<{ event?: string; data: unknown }>): Response {
  const text = events.map((e) => `${e.event ? `event: ${e.event}\n` : ''}data: ${typeof e.data === 'string' ? e.data : JSON.stringify(e.data)}\n\n`).join('');
  return new Response(text, { status: 200, headers: { 'content-type': 'text/event-stream' } });
}

const created = () => Math.floor(Date.now() / 1000);
const zeroChatUsage = { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 };

function chatCompletion(model: string) {
  return {
    id: 'chatcmpl-dry-run',
    object: 'chat.completion',
    created: created(),
    model,
    choices: [{ index: 0, message: { role: 'assistant', content: DRY_RUN_REPLY, refusal: null }, logprobs: null, finish_reason: 'stop' }],
    usage: zeroChatUsage,
  };
}

function chatChunks(model: string) {
  const chunk = (o: object) => ({ data: { id: 'chatcmpl-dry-run', object: 'chat.completion.chunk', created: created(), model, ...o } });
  return [
    chunk({ choices: [{ index: 0, delta: { role: 'assistant', content: DRY_RUN_REPLY }, finish_reason: null }] }),
    chunk({ choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] }),
    chunk({ choices: [], usage: zeroChatUsage }),
    { data: '[DONE]' },
  ];
}

function response(model: string) {
  return {
    id: 'resp-dry-run',
    object: 'response',
    created_at: created(),
    status: 'completed',
    model,
    output: [{ type: 'message', id: 'msg-dry-run', status: 'completed', role: 'assistant', content: [{ type: 'output_text', text: DRY_RUN_REPLY, annotations: [] }] }],
    usage: { input_tokens: 0, output_tokens: 0, total_tokens: 0, input_tokens_details: { cached_tokens: 0 }, output_tokens_details: { reasoning_tokens: 0 } },
  };
}

function responseEvents(model: string) {
  const done = response(model);
  return [
    { event: 'response.output_text.delta', data: { type: 'response.output_text.delta', item_id: 'msg-dry-run', output_index: 0, content_index: 0, delta: DRY_RUN_REPLY, sequence_number: 0 } },
    { event: 'response.completed', data: { type: 'response.completed', response: done, sequence_number: 1 } },
  ];
}

function anthropicMessage(model: string) {
  return {
    id: 'msg_dry_run',
    type: 'message',
    role: 'assistant',
    model,
    content: [{ type: 'text', text: DRY_RUN_REPLY }],
    stop_reason: 'end_turn',
    stop_sequence: null,
    usage: { input_tokens: 0, output_tokens: 0 },
  };
}

function anthropicEvents(model: string) {
  const ev = (type: string, o: object) => ({ event: type, data: { type, ...o } });
  return [
    ev('message_start', { message: { ...anthropicMessage(model), content: [], stop_reason: null } }),
    ev('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }),
    ev('content_block_delta', { index: 0, delta: { type: 'text_delta', text: DRY_RUN_REPLY } }),
    ev('content_block_stop', { index: 0 }),
    ev('message_delta', { delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 0 } }),
    ev('message_stop', {}),
  ];
}
