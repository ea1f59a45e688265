import { AgentRunSchema, type AgentRun } from '../core/agent-run.js';
import { redactSecrets } from '../providers/errors.js';
import type { SecretRedactor } from '../providers/secret-redactor.js';
import { readTextBounded } from '../providers/body-limit.js';
import { transportFetch } from '../providers/http-transport.js';
import type { ProxySetting } from '../providers/proxy.js';
import type { FetchLike } from '../providers/fetch-like.js';
import { errorMessage, RedirectRefusedError } from '../core/errors.js';
import { displayURL } from '../core/display-url.js';
import { runAsOneTurn } from './session.js';
import type { Target, TargetSession, TrialInput } from './types.js';
import type { z } from 'zod';
import type { HttpTargetSchema } from './target-schemas.js';
import type { TargetSettings } from './target-settings.js';
import { withTargetTimeout } from './target-timeout.js';

export interface HttpTargetOptions {
  /** Base URL of the agent service, e.g. http://127.0.0.1:8080. */
  url: string;
  /** Sent on every request (e.g. an Authorization header); values never appear in errors. */
  headers?: Record<string, string>;
  /** The run's secret values, redacted from error bodies before they are cut short. */
  redactor?: SecretRedactor;
  /** Largest response body read (bytes); default 16 MB. */
  maxResponseBytes?: number;
  /** Its HTTP proxy (a URL), or false for direct; unset: the environment's (`env`) HTTPS_PROXY / HTTP_PROXY / NO_PROXY. */
  proxy?: ProxySetting | undefined;
  /** Where the proxy variables are read (default process.env). */
  env?: NodeJS.ProcessEnv;
}

const BODY_PREVIEW_BYTES = 512;
/** Same-origin redirects followed per request; one to another origin is refused (it would get the headers). */
const MAX_REDIRECTS = 5;

/**
 * An agent running as a service. Protocol: `GET /health` once (any 2xx is healthy), then per
 * trial `POST /sessions` with the trial JSON → `{ sessionId }`, and per user turn
 * `POST /sessions/{id}/turns` with `{ message }` → that turn's AgentRun JSON.
 */
export function httpTarget(name: string, opts: HttpTargetOptions): Target {
  const base = opts.url.replace(/\/+$/, '');
  const secrets = Object.values(opts.headers ?? {});
  // Whole body first, then the cut: a cut value would otherwise slip past the redaction.
  const clean = (text: string) => redactSecrets(opts.redactor ? opts.redactor.redact(text) : text, secrets);
  let health: Promise<void> | undefined;
  const send = transportFetch({ proxy: opts.proxy, env: opts.env ?? process.env });

  /**
   * One request; any failure is an Error naming the target, method, path and status. `json: false`
   * takes any 2xx body as it is (a health check's plain `ok`).
   */
  const call = async (method: 'GET' | 'POST', path: string, body: unknown, signal: AbortSignal, json = true): Promise<unknown> => {
    const where = `${method} ${path}`;
    let res: Response;
    try {
      res = await fetchSameOrigin(send, base + path, {
        method,
        headers: { ...(body !== undefined ? { 'content-type': 'application/json' } : {}), accept: 'application/json', ...opts.headers },
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
        signal,
      });
    } catch (err) {
      if (signal.aborted) throw signal.reason instanceof Error ? signal.reason : new Error('aborted');
      if (err instanceof RedirectRefusedError) throw new Error(`HTTP target "${name}": ${where} ${err.message}`, { cause: err });
      // eslint-disable-next-line preserve-caught-error -- the raw error is not kept: its text is unredacted, the message carries the cleaned form
      throw new Error(`HTTP target "${name}": ${where} failed: ${clean(causeOf(err))}`);
    }
    let text: string;
    try {
      text = await readTextBounded(res, opts.maxResponseBytes);
    } catch (err) {
      if (signal.aborted) throw signal.reason instanceof Error ? signal.reason : new Error('aborted');
      throw new Error(`HTTP target "${name}": ${where} answered ${res.status} with a ${errorMessage(err)}`, { cause: err });
    }
    if (!res.ok) {
      throw new Error(`HTTP target "${name}": ${where} answered ${res.status}${text ? `: ${preview(clean(text))}` : ''}`);
    }
    if (!json || text.trim() === '') return undefined;
    try {
      return JSON.parse(text) as unknown;
    } catch {
      throw new Error(`HTTP target "${name}": ${where} answered ${res.status} with a body that is not JSON: ${preview(clean(text))}`);
    }
  };

  // Checked once per run, before the first trial; an unhealthy service fails every trial the same way.
  // A check cut short by its trial's abort says nothing about the service: the next trial retries it.
  const ensureHealthy = (signal: AbortSignal) =>
    (health ??= call('GET', '/health', undefined, signal, false).then(
      () => undefined,
      (err: unknown) => {
        if (signal.aborted) {
          health = undefined;
          throw err;
        }
        throw new Error(`${errorMessage(err)} (health check of ${displayURL(base)})`);
      },
    ));

  const openSession = async (trial: TrialInput, signal: AbortSignal): Promise<TargetSession> => {
    await ensureHealthy(signal);
    const created = await call('POST', '/sessions', trial, signal);
    const id = (created as { sessionId?: unknown } | undefined)?.sessionId;
    if ((typeof id !== 'string' || id === '') && typeof id !== 'number') {
      throw new Error(`HTTP target "${name}": POST /sessions answered without a sessionId (expected {"sessionId": "..."})`);
    }
    const turnsPath = `/sessions/${encodeURIComponent(String(id))}/turns`;
    return {
      async send(message, turnSignal, parts) {
        // A turn given as parts sends them too, as POST /sessions sends the input's (`parts`).
        const value = await call('POST', turnsPath, { message, ...(parts ? { parts } : {}) }, turnSignal);
        const parsed = AgentRunSchema.safeParse(value);
        if (!parsed.success) {
          const i = parsed.error.issues[0]!;
          throw new Error(`HTTP target "${name}": POST ${turnsPath} answered no valid AgentRun: ${i.path.join('.') || '(root)'}: ${i.message}`);
        }
        return parsed.data satisfies AgentRun;
      },
      // The protocol has no delete: services expire their own sessions.
      async close() {},
    };
  };

  return { name, openSession, run: (trial, signal) => runAsOneTurn(openSession, trial, signal) };
}

/** The first bytes of a body, as text. */
function preview(text: string): string {
  const bytes = Buffer.from(text, 'utf8');
  return bytes.length <= BODY_PREVIEW_BYTES ? text : `${bytes.subarray(0, BODY_PREVIEW_BYTES).toString('utf8')}…`;
}

/**
 * fetch that follows redirects only within the origin it was given: the configured headers are
 * credentials more often than not, and another origin must never receive them. A 303 (or a 301/302
 * after a POST) continues as a GET without a body, as browsers do; 307/308 repeat the request.
 */
async function fetchSameOrigin(send: FetchLike, url: string, init: RequestInit & { method: string }): Promise<Response> {
  const origin = new URL(url).origin;
  let current = url;
  let req = init;
  for (let hop = 0; ; hop++) {
    const res = await send(current, { ...req, redirect: 'manual' });
    const location = res.status >= 300 && res.status < 400 ? res.headers.get('location') : null;
    if (location === null) return res;
    await res.body?.cancel();
    const next = new URL(location, current);
    if (next.origin !== origin) throw new RedirectRefusedError(`was redirected (${res.status}) to another origin (${next.origin}); not followed, so the target's headers stay with its own origin`);
    if (hop >= MAX_REDIRECTS) throw new RedirectRefusedError(`was redirected more than ${MAX_REDIRECTS} times`);
    if (res.status === 303 || ((res.status === 301 || res.status === 302) && req.method === 'POST')) {
      const { body: _dropped, ...rest } = req;
      const headers = { ...(rest.headers as Record<string, string>) };
      delete headers['content-type'];
      req = { ...rest, method: 'GET', headers };
    }
    current = next.href;
  }
}

/** undici says "fetch failed"; the reason (ECONNREFUSED, …) is in `cause`. */
function causeOf(err: unknown): string {
  const cause = (err as { cause?: unknown })?.cause;
  const detail = cause instanceof Error ? ((cause as { code?: string }).code ?? cause.message) : undefined;
  return detail ? `${errorMessage(err)} (${detail})` : errorMessage(err);
}

/** An HTTP target from its config value, bounded by its `timeoutMs`. */
export function buildHttpTarget(name: string, spec: z.infer<typeof HttpTargetSchema>, settings: TargetSettings): Target {
  const proxy = spec.proxy ?? settings.limiters.proxy;
  return withTargetTimeout(httpTarget(name, { ...spec, proxy, env: settings.env, ...(settings.redactor ? { redactor: settings.redactor } : {}) }), spec.timeoutMs);
}
