import { DRY_RUN_REPLY } from '../providers/create.js';
import { providerWire } from '../providers/wires.js';
import type { ProviderId } from '../providers/types.js';
import type { FetchLike } from '../providers/fetch-like.js';

/**
 * `--dry-run` for the SDK clients of function targets: a fetch that never touches the network and
 * answers in the provider's own wire format (its wire's `bodies.dryRunAnswer`, JSON or streamed)
 * with the dry-run placeholder and zero usage, so the real SDK parses it as usual.
 */
export function dryRunFetch(provider: ProviderId): FetchLike {
  return async (input, init) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const body = parseBody(init?.body);
    const model = typeof body.model === 'string' ? body.model : 'dry-run';
    const stream = body.stream === true;
    const path = new URL(url).pathname;
    const answer = providerWire(provider).bodies.dryRunAnswer(path, model, stream, DRY_RUN_REPLY);
    if (answer) return 'json' in answer ? json(answer.json) : sse(answer.events);
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
