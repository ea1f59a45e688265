/**
 * The Message Batches endpoints of the fake Anthropic server, from the API's documented wire
 * format: create (POST /v1/messages/batches), retrieve (GET …/{id}), results (GET of the batch's
 * `results_url`, a JSONL stream), cancel (POST …/{id}/cancel). Like the real API, create checks the
 * envelope (custom_id shape and uniqueness, request count and size) and answers 400 for it, while
 * each request's params are validated when the request is processed: a bad one becomes an
 * `errored` result, as a live /v1/messages call would have answered 400. Each request is answered
 * by the same scripted replies as a live call. No clocks: each retrieve moves the batch on by one
 * step, so a test polls its way to `ended`.
 */
import { errorBody, error, toMessage, validate, type FakeAnthropicOptions, type FakeAnthropicState } from './fake-anthropic.js';
import { resolveDelay, retryHeaders, type CapturedRequest, type HttpReply, type ScriptQueue } from './fake-server.js';

export interface FakeBatchOptions {
  /** Retrieves it takes a batch to end; each one processes an equal share of its requests (default 2). */
  pollsToEnd?: number;
  /** custom_ids that expire (the 24 hours ran out) instead of being processed. */
  expire?: readonly string[];
  /** Faults answered to the first create attempts, in order (an API error, a dropped connection); later ones are accepted. */
  createFaults?: readonly ({ status: number; message?: string; retryAfterMs?: number } | { drop: true })[];
}

type BatchResult = { type: 'succeeded'; message: unknown } | { type: 'errored'; error: unknown } | { type: 'canceled' } | { type: 'expired' };

export interface FakeBatch {
  id: string;
  requests: { custom_id: string; params: any }[];
  /** Outcomes in the order requests were processed. */
  results: { custom_id: string; result: BatchResult }[];
  status: 'in_progress' | 'canceling' | 'ended';
  createdAt: string;
  /** The create request's `anthropic-version`: its requests are checked under it. */
  apiVersion: string;
  cancelInitiatedAt: string | null;
  endedAt: string | null;
}

/** What the batch endpoints were asked to do, for tests to count and inspect. */
export interface FakeBatchLog {
  /** Every batch created, in order. */
  created: FakeBatch[];
  /** Ids of every cancel request that reached the fake. */
  cancelled: string[];
  /** Create requests received, refused ones included. */
  createAttempts: number;
  state: Map<string, FakeBatch>;
}

export interface BatchContext {
  queue: ScriptQueue;
  options: FakeAnthropicOptions;
  log: FakeBatchLog;
  origin: string;
  /** The thinking blocks the fake issued, live or in a batch. */
  state: FakeAnthropicState;
}

const CUSTOM_ID = /^[a-zA-Z0-9_-]{1,64}$/;
const MAX_REQUESTS = 100_000;
const MAX_BYTES = 256 * 1024 * 1024;

export function handleBatch(req: CapturedRequest, path: string, index: number, ctx: BatchContext): HttpReply {
  const rest = path.slice('/v1/messages/batches'.length).split('/').filter(Boolean);
  if (rest.length === 0 && req.method === 'POST') return create(req, index, ctx);
  const batch = rest[0] !== undefined ? ctx.log.state.get(decodeURIComponent(rest[0])) : undefined;
  if (rest.length > 0 && !batch) return error(404, `message batch not found: ${rest[0]}`, index);
  if (batch && rest.length === 1 && req.method === 'GET') {
    advance(batch, ctx);
    return ok(view(batch, ctx), index);
  }
  if (batch && rest[1] === 'cancel' && rest.length === 2 && req.method === 'POST') {
    ctx.log.cancelled.push(batch.id);
    if (batch.status === 'in_progress') {
      batch.status = 'canceling';
      batch.cancelInitiatedAt = new Date().toISOString();
    }
    return ok(view(batch, ctx), index);
  }
  if (batch && rest[1] === 'results' && rest.length === 2 && req.method === 'GET') {
    if (batch.status !== 'ended') return error(400, `message batch ${batch.id} is still ${batch.status}: results are available once it has ended`, index);
    // Like the real API, not in request order: the client must match lines by custom_id.
    const lines = [...batch.results].reverse().map((r) => JSON.stringify(r));
    return { status: 200, headers: { 'content-type': 'application/binary', 'request-id': `req_fake${index}` }, body: lines.join('\n') + '\n' };
  }
  return error(404, `Not found: ${req.method} ${req.path}`, index);
}

function create(req: CapturedRequest, index: number, ctx: BatchContext): HttpReply {
  const fault = ctx.options.batch?.createFaults?.[ctx.log.createAttempts++];
  if (fault) return 'drop' in fault ? { drop: true } : error(fault.status, fault.message, index, retryHeaders(fault));
  if (Buffer.byteLength(req.rawBody) > MAX_BYTES) return error(413, `request body exceeds ${MAX_BYTES} bytes`, index);
  const requests: unknown = req.body?.requests;
  if (!Array.isArray(requests) || requests.length === 0) return error(400, 'requests: at least one request is required', index);
  if (requests.length > MAX_REQUESTS) return error(400, `requests: at most ${MAX_REQUESTS} requests per batch`, index);
  const seen = new Set<string>();
  for (const [i, r] of requests.entries()) {
    const id: unknown = r?.custom_id;
    if (typeof id !== 'string' || !CUSTOM_ID.test(id)) return error(400, `requests.${i}.custom_id: String should match pattern '^[a-zA-Z0-9_-]{1,64}$'`, index);
    if (seen.has(id)) return error(400, `requests.${i}.custom_id: duplicate custom_id '${id}'`, index);
    seen.add(id);
    if (typeof r.params !== 'object' || r.params === null || Array.isArray(r.params)) return error(400, `requests.${i}.params: Input should be an object`, index);
  }
  const batch: FakeBatch = {
    id: `msgbatch_fake${ctx.log.created.length}`,
    requests: requests as FakeBatch['requests'],
    results: [],
    status: 'in_progress',
    createdAt: new Date().toISOString(),
    apiVersion: req.headers['anthropic-version'] ?? '',
    cancelInitiatedAt: null,
    endedAt: null,
  };
  ctx.log.created.push(batch);
  ctx.log.state.set(batch.id, batch);
  return ok(view(batch, ctx), index);
}

/** One poll's worth of progress: a share of the requests answered, or a canceling batch wound up. */
function advance(batch: FakeBatch, ctx: BatchContext): void {
  if (batch.status === 'ended') return;
  const pending = batch.requests.slice(batch.results.length);
  if (batch.status === 'canceling') {
    for (const r of pending) batch.results.push({ custom_id: r.custom_id, result: { type: 'canceled' } });
  } else {
    const step = Math.ceil(batch.requests.length / Math.max(1, ctx.options.batch?.pollsToEnd ?? 2));
    for (const r of pending.slice(0, step)) batch.results.push({ custom_id: r.custom_id, result: answer(r, batch.apiVersion, ctx) });
  }
  if (batch.results.length === batch.requests.length) {
    batch.status = 'ended';
    batch.endedAt = new Date().toISOString();
  }
}

/** What a live /v1/messages call with these params would have answered, as a batch result. */
function answer(r: FakeBatch['requests'][number], apiVersion: string, ctx: BatchContext): BatchResult {
  const n = ctx.log.created.reduce((sum, b) => sum + b.results.length, 0);
  if (ctx.options.batch?.expire?.includes(r.custom_id)) return { type: 'expired' };
  const invalid = validate(r.params, ctx.state, apiVersion);
  if (invalid) return { type: 'errored', error: errorBody(400, invalid, n) };
  const scripted = ctx.queue.next(r.params, n);
  if (!scripted) return { type: 'errored', error: errorBody(500, `fake anthropic: no scripted reply for batch request ${r.custom_id}`, n) };
  // A delay means nothing inside a batch; faults of the HTTP exchange become server errors.
  const { reply } = resolveDelay(scripted);
  if ('status' in reply) return { type: 'errored', error: errorBody(reply.status, reply.message, n) };
  if ('drop' in reply || 'endless' in reply || 'malformed' in reply) return { type: 'errored', error: errorBody(500, 'fake anthropic: internal error', n) };
  return { type: 'succeeded', message: toMessage(reply, r.params, n, ctx) };
}

function view(batch: FakeBatch, ctx: BatchContext) {
  const count = (type: BatchResult['type']) => batch.results.filter((r) => r.result.type === type).length;
  const expires = new Date(Date.parse(batch.createdAt) + 24 * 3600 * 1000).toISOString();
  return {
    id: batch.id,
    type: 'message_batch',
    processing_status: batch.status,
    request_counts: {
      processing: batch.requests.length - batch.results.length,
      succeeded: count('succeeded'),
      errored: count('errored'),
      canceled: count('canceled'),
      expired: count('expired'),
    },
    created_at: batch.createdAt,
    expires_at: expires,
    ended_at: batch.endedAt,
    archived_at: null,
    cancel_initiated_at: batch.cancelInitiatedAt,
    results_url: batch.status === 'ended' ? `${ctx.origin}/v1/messages/batches/${batch.id}/results` : null,
  };
}

function ok(body: unknown, index: number): HttpReply {
  return { status: 200, headers: { 'request-id': `req_fake${index}` }, body: JSON.stringify(body) };
}
