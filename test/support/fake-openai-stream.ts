/**
 * The streamed form of a fake Chat Completions answer: a request with `stream: true` gets the same
 * completion as server-sent events, as the real endpoint sends them: a role chunk, content deltas,
 * tool-call deltas (id and name first, then the arguments in pieces), a chunk with the finish
 * reason, the usage chunk (only when `stream_options.include_usage` is set), then `data: [DONE]`.
 */
import type { HttpReply } from './fake-server.js';

/** A JSON completion reply turned into its event stream; errors and faults stay as they are (the real API answers those before streaming). */
export function asEventStream(reply: HttpReply, requestBody: any): HttpReply {
  if (!('status' in reply) || reply.status !== 200) return reply;
  const completion = tryParse(reply.body);
  if (completion?.object !== 'chat.completion') return reply;
  const includeUsage = requestBody?.stream_options?.include_usage === true;
  return {
    ...reply,
    headers: { ...reply.headers, 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' },
    body: renderChunks(completion, includeUsage).map(event).join('') + 'data: [DONE]\n\n',
  };
}

function renderChunks(completion: any, includeUsage: boolean): object[] {
  const choice = completion.choices[0];
  const message = choice.message;
  const base = {
    id: completion.id,
    object: 'chat.completion.chunk',
    created: completion.created,
    model: completion.model,
    service_tier: completion.service_tier,
    system_fingerprint: completion.system_fingerprint,
  };
  const chunk = (delta: object, finish: string | null = null) => ({
    ...base,
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
    ...(includeUsage ? { usage: null } : {}),
  });
  const chunks: object[] = [chunk({ role: 'assistant', content: '', refusal: null })];
  if (typeof message.content === 'string') for (const piece of pieces(message.content)) chunks.push(chunk({ content: piece }));
  for (const [index, call] of (message.tool_calls ?? []).entries()) {
    chunks.push(chunk({ tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.function.name, arguments: '' } }] }));
    for (const piece of pieces(call.function.arguments)) chunks.push(chunk({ tool_calls: [{ index, function: { arguments: piece } }] }));
  }
  chunks.push(chunk({}, choice.finish_reason));
  if (includeUsage) chunks.push({ ...base, choices: [], usage: completion.usage });
  return chunks;
}

/** Text cut in a few pieces, so a client must join deltas to get it whole. */
function pieces(text: string): string[] {
  const size = Math.max(1, Math.ceil(text.length / 3));
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

function event(data: object): string {
  return `data: ${JSON.stringify(data)}\n\n`;
}

function tryParse(text: string): any {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
