/**
 * The OpenAI Batch API on the fake server, from its documented wire format: POST /v1/files
 * (multipart, purpose `batch`, a JSONL of `{custom_id, method, url, body}` lines), POST /v1/batches,
 * GET /v1/batches/{id} (validating → in_progress → completed, one step a poll), GET
 * /v1/files/{id}/content (the output and error files), POST /v1/batches/{id}/cancel (cancelling →
 * cancelled). Each line is answered by `answer`, the fake's live logic for its endpoint (Chat
 * Completions or the Responses API).
 */
import type { CapturedRequest, HttpReply } from './fake-server.js';

export interface FakeBatchOptions {
  /** Polls a batch stays `in_progress` before it completes (default 1); lines are answered over them. */
  pollsInProgress?: number;
  /**
   * A status the API might add later (not one of its documented eight): reported by every poll
   * after `validating`, so the batch never ends. Tests that the runner does not wait on it forever.
   */
  unknownStatus?: string;
  /** Polls of a batch (GET /v1/batches/{id}) answered 500 `server_error`, from the first on (results reads still work). */
  failingPolls?: number;
  /** The output file repeats its first line (a custom_id answered twice). */
  duplicateFirstOutput?: boolean;
  /** A batch in progress reaches its completion window unanswered: `expired`, each line in the error file. */
  expire?: boolean;
}

/** What tests count: every batch created and every cancel asked. */
export interface FakeBatchLog {
  creates: Array<{ id: string; lines: number; inputFileId: string }>;
  cancels: string[];
  /** Polls answered 500 under `failingPolls`. */
  failedPolls: number;
}

type Status = 'validating' | 'in_progress' | 'finalizing' | 'completed' | 'failed' | 'cancelling' | 'cancelled' | 'expired';

interface FakeFile {
  id: string;
  filename: string;
  purpose: string;
  content: string;
}

interface FakeBatch {
  id: string;
  inputFileId: string;
  // A documented Status, or the `unknownStatus` a test set.
  status: string;
  polls: number;
  lines: Array<{ custom_id: string; body: unknown; url: string }>;
  /** Answered lines so far, in order. */
  out: string[];
  err: string[];
  outputFileId?: string;
  errorFileId?: string;
  errors?: Array<{ code: string; message: string; line: number }>;
  createdAt: number;
}

/** Turns one request body into the live reply for it (scripted queue, validation, errors). */
export type AnswerLine = (body: unknown, index: number, url: string) => HttpReply;
export type ErrorReply = (status: number, message: string, index: number) => HttpReply;

export class FakeOpenAIBatches {
  readonly log: FakeBatchLog = { creates: [], cancels: [], failedPolls: 0 };
  readonly #files = new Map<string, FakeFile>();
  readonly #batches = new Map<string, FakeBatch>();
  #lineIndex = 0;

  constructor(
    private readonly answer: AnswerLine,
    private readonly error: ErrorReply,
    private readonly options: FakeBatchOptions = {},
  ) {}

  /** Whether `path` is a Files or Batches route. */
  static handles(path: string): boolean {
    return /^\/v1\/(files|batches)(\/|$)/.test(path);
  }

  async handle(req: CapturedRequest, index: number): Promise<HttpReply> {
    const path = req.path.split('?')[0]!;
    if (req.method === 'POST' && path === '/v1/files') return this.#upload(req, index);
    if (req.method === 'POST' && path === '/v1/batches') return this.#create(req.body, index);
    let m = /^\/v1\/files\/([^/]+)\/content$/.exec(path);
    if (req.method === 'GET' && m) {
      const file = this.#files.get(m[1]!);
      return file ? { status: 200, headers: { 'content-type': 'application/octet-stream' }, body: file.content } : this.error(404, `No such File object: ${m[1]}`, index);
    }
    m = /^\/v1\/batches\/([^/]+)(\/cancel)?$/.exec(path);
    const batch = m ? this.#batches.get(m[1]!) : undefined;
    if (m && !batch) return this.error(404, `No batch found with id '${m[1]}'.`, index);
    if (batch && req.method === 'GET' && !m![2]) {
      if ((this.options.failingPolls ?? 0) > this.log.failedPolls) {
        this.log.failedPolls += 1;
        return this.error(500, 'The server had an error while processing your request.', index);
      }
      return this.#poll(batch);
    }
    if (batch && req.method === 'POST' && m![2]) return this.#cancel(batch, index);
    return this.error(404, `Unknown request URL: ${req.method} ${req.path}`, index);
  }

  async #upload(req: CapturedRequest, index: number): Promise<HttpReply> {
    const type = req.headers['content-type'] ?? '';
    if (!type.startsWith('multipart/form-data')) return this.error(400, 'Expected a multipart/form-data upload.', index);
    const form = await new Response(req.rawBody, { headers: { 'content-type': type } }).formData();
    const purpose = form.get('purpose');
    const file = form.get('file');
    if (purpose !== 'batch') return this.error(400, `Invalid purpose: ${String(purpose)}; this fake takes 'batch' files only.`, index);
    if (!file || typeof file === 'string') return this.error(400, "Missing required parameter: 'file'.", index);
    if (!file.name.endsWith('.jsonl')) return this.error(400, 'Invalid file format for Batch API. Must be .jsonl', index);
    const id = `file-fake${this.#files.size + 1}`;
    const content = await file.text();
    this.#files.set(id, { id, filename: file.name, purpose: 'batch', content });
    return json({ id, object: 'file', bytes: Buffer.byteLength(content), created_at: now(), filename: file.name, purpose: 'batch', status: 'processed', expires_at: null, status_details: null });
  }

  #create(body: any, index: number): HttpReply {
    const file = this.#files.get(String(body?.input_file_id));
    if (!file) return this.error(400, `Invalid 'input_file_id': '${String(body?.input_file_id)}'. File not found.`, index);
    if (body.endpoint !== '/v1/chat/completions' && body.endpoint !== '/v1/responses') {
      return this.error(400, `This fake batches /v1/chat/completions and /v1/responses only, not ${String(body.endpoint)}.`, index);
    }
    if (body.completion_window !== '24h') return this.error(400, "Invalid 'completion_window': only '24h' is supported.", index);
    const id = `batch_fake${this.#batches.size + 1}`;
    const batch: FakeBatch = { id, inputFileId: file.id, status: 'validating', polls: 0, lines: [], out: [], err: [], createdAt: now() };
    // Validated as the real service does: a malformed line fails the whole batch.
    const seen = new Set<string>();
    let model: string | undefined;
    file.content.split('\n').forEach((text, k) => {
      if (!text.trim() || batch.errors) return;
      const fail = (message: string) => (batch.errors = [{ code: 'invalid_request', message, line: k + 1 }]);
      let line: any;
      try {
        line = JSON.parse(text);
      } catch {
        return fail('Invalid JSON line.');
      }
      if (typeof line.custom_id !== 'string' || seen.has(line.custom_id)) return fail('custom_id must be a unique string.');
      if (line.method !== 'POST' || line.url !== body.endpoint) return fail(`The line's method and url must be POST ${body.endpoint}.`);
      if (model !== undefined && line.body?.model !== model) return fail('All requests of a batch must use the same model.');
      model = line.body?.model;
      seen.add(line.custom_id);
      batch.lines.push({ custom_id: line.custom_id, body: line.body, url: line.url });
    });
    this.#batches.set(id, batch);
    this.log.creates.push({ id, lines: batch.lines.length, inputFileId: file.id });
    return json(view(batch));
  }

  /** Each poll moves the batch a step: validating → in_progress (lines answered over the polls) → completed. */
  #poll(batch: FakeBatch): HttpReply {
    batch.polls += 1;
    if (batch.status === 'validating') batch.status = batch.errors ? 'failed' : (this.options.unknownStatus ?? 'in_progress');
    else if (batch.status === 'cancelling') this.#end(batch, 'cancelled');
    else if (batch.status === 'in_progress' && this.options.expire) {
      for (const line of batch.lines)
        batch.err.push(
          JSON.stringify({
            id: `batch_req_fake${this.#lineIndex++}`,
            custom_id: line.custom_id,
            response: null,
            error: { code: 'batch_expired', message: 'This request could not be executed before the completion window expired.' },
          }),
        );
      this.#end(batch, 'expired');
    } else if (batch.status === 'in_progress') {
      const rounds = Math.max(1, this.options.pollsInProgress ?? 1);
      const per = Math.ceil(batch.lines.length / rounds);
      for (const line of batch.lines.slice(batch.out.length + batch.err.length, batch.out.length + batch.err.length + per)) this.#answer(batch, line);
      if (batch.out.length + batch.err.length === batch.lines.length) this.#end(batch, 'completed');
    }
    return json(view(batch));
  }

  #answer(batch: FakeBatch, line: { custom_id: string; body: unknown; url: string }): void {
    const index = this.#lineIndex++;
    const reply = this.answer(line.body, index, line.url);
    const id = `batch_req_fake${index}`;
    if (!('status' in reply)) {
      batch.err.push(JSON.stringify({ id, custom_id: line.custom_id, response: null, error: { code: 'server_error', message: 'The request could not be completed.' } }));
      return;
    }
    let body: unknown;
    try {
      body = JSON.parse(reply.body);
    } catch {
      batch.err.push(JSON.stringify({ id, custom_id: line.custom_id, response: null, error: { code: 'server_error', message: 'The response could not be read.' } }));
      return;
    }
    const out = JSON.stringify({ id, custom_id: line.custom_id, response: { status_code: reply.status, request_id: `req_fake${index}`, body }, error: null });
    (reply.status === 200 ? batch.out : batch.err).push(out);
  }

  #end(batch: FakeBatch, status: Status): void {
    batch.status = status;
    const save = (lines: string[], name: string) => {
      if (lines.length === 0) return undefined;
      const id = `file-fake${this.#files.size + 1}`;
      this.#files.set(id, { id, filename: name, purpose: 'batch_output', content: lines.map((l) => `${l}\n`).join('') });
      return id;
    };
    batch.outputFileId = save(this.options.duplicateFirstOutput ? [...batch.out, ...batch.out.slice(0, 1)] : batch.out, `${batch.id}_output.jsonl`);
    batch.errorFileId = save(batch.err, `${batch.id}_error.jsonl`);
  }

  #cancel(batch: FakeBatch, index: number): HttpReply {
    this.log.cancels.push(batch.id);
    if (!['validating', 'in_progress', 'finalizing'].includes(batch.status)) return this.error(400, `Cannot cancel a batch with status '${batch.status}'.`, index);
    batch.status = 'cancelling';
    return json(view(batch));
  }
}

function view(b: FakeBatch) {
  const at = (s: readonly string[]) => (s.includes(b.status) ? now() : null);
  return {
    id: b.id,
    object: 'batch',
    endpoint: '/v1/chat/completions',
    errors: b.errors ? { object: 'list', data: b.errors.map((e) => ({ ...e, param: null })) } : null,
    input_file_id: b.inputFileId,
    completion_window: '24h',
    status: b.status,
    output_file_id: b.outputFileId ?? null,
    error_file_id: b.errorFileId ?? null,
    created_at: b.createdAt,
    in_progress_at: b.status === 'validating' ? null : b.createdAt,
    expires_at: b.createdAt + 86_400,
    finalizing_at: null,
    completed_at: at(['completed']),
    failed_at: at(['failed']),
    expired_at: at(['expired']),
    cancelling_at: at(['cancelling', 'cancelled']),
    cancelled_at: at(['cancelled']),
    request_counts: { total: b.lines.length, completed: b.out.length, failed: b.err.length },
    metadata: null,
  };
}

function json(body: unknown): HttpReply {
  return { status: 200, headers: { 'x-request-id': 'req_fakebatch' }, body: JSON.stringify(body) };
}

function now(): number {
  return Math.floor(Date.now() / 1000);
}
