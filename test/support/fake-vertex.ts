/**
 * A fake Vertex AI endpoint for Claude, with the Google token endpoint its credentials point at:
 * `POST /token` exchanges the subject token of an `external_account` credentials file (workload
 * identity federation, Google's application default credentials: the SDK's google-auth-library
 * reads the file named by GOOGLE_APPLICATION_CREDENTIALS) for an access token;
 * `POST /v1/projects/{p}/locations/{r}/publishers/anthropic/models/{m}:rawPredict` takes the
 * Messages body with `anthropic_version` and without `model` (it is in the path), only with that
 * access token, for the project and region given (Google's 401 UNAUTHENTICATED / 403 PERMISSION_DENIED
 * otherwise; Anthropic docs: Claude on Vertex AI, read 2026-12-04), answered in the Messages format.
 * The body is checked as the Anthropic fake checks a Messages body (fake-anthropic.ts).
 *
 * `anthropic_version`: the docs name `vertex-2023-10-16`; the official Vertex SDK (1.1.4) sends its
 * API version header's value (`2026-10-21`). Both are taken; another value or none is a 400.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { error, toMessage, validate, type FakeAnthropicState } from './fake-anthropic.js';
import { asFakeProvider, resolveDelay, ScriptQueue, startFakeServer, type CapturedRequest, type FakeProvider, type HttpReply, type Script } from './fake-server.js';

export interface FakeVertexOptions {
  script?: Script;
  project: string;
  region: string;
}

export interface FakeVertex extends FakeProvider {
  /** Writes an `external_account` credentials file (and its subject token) into `dir` whose token endpoint is this fake's; returns its path. */
  credentialsFile(dir: string): string;
  /** Access tokens this fake issued. */
  readonly issued: readonly string[];
}

const SUBJECT_TOKEN = 'fake-oidc-subject-token';
const VERSIONS = ['vertex-2023-10-16', '2026-10-21'];

export async function startFakeVertex(options: FakeVertexOptions): Promise<FakeVertex> {
  const queue = new ScriptQueue(options.script);
  const state: FakeAnthropicState = { signatures: new Map(), redacted: new Set() };
  const issued: string[] = [];
  const server = await startFakeServer((req, index) => {
    if (req.method === 'POST' && req.path === '/token') return exchange(req, issued);
    return predict(req, index, options, issued, queue, state);
  });
  const fake = asFakeProvider(server, `${server.origin}/v1`, queue);
  return Object.defineProperties(fake, {
    issued: { get: () => issued, enumerable: true },
    credentialsFile: {
      value: (dir: string) => {
        const subject = join(dir, 'subject-token.txt');
        writeFileSync(subject, SUBJECT_TOKEN);
        const file = join(dir, 'vertex-credentials.json');
        const credentials = {
          type: 'external_account',
          // No `projects/<number>` in it: the library would look that project up at cloudresourcemanager.googleapis.com.
          audience: '//iam.googleapis.com/locations/global/workloadIdentityPools/evals/providers/fake',
          subject_token_type: 'urn:ietf:params:oauth:token-type:jwt',
          token_url: `${server.origin}/token`,
          credential_source: { file: subject },
        };
        writeFileSync(file, JSON.stringify(credentials));
        return file;
      },
    },
  }) as FakeVertex;
}

function googleError(status: number, code: string, message: string): HttpReply {
  return { status, body: JSON.stringify({ error: { code: status, message, status: code } }) };
}

/** The STS token exchange (RFC 8693) of the credentials' subject token. */
function exchange(req: CapturedRequest, issued: string[]): HttpReply {
  const form = new URLSearchParams(req.rawBody);
  if (form.get('grant_type') !== 'urn:ietf:params:oauth:grant-type:token-exchange' || form.get('subject_token') !== SUBJECT_TOKEN) {
    return { status: 400, body: JSON.stringify({ error: 'invalid_grant', error_description: 'The subject token is invalid.' }) };
  }
  const token = `ya29.fake-access-token-${issued.length}`;
  issued.push(token);
  return { status: 200, body: JSON.stringify({ access_token: token, issued_token_type: 'urn:ietf:params:oauth:token-type:access_token', token_type: 'Bearer', expires_in: 3600 }) };
}

function predict(req: CapturedRequest, index: number, options: FakeVertexOptions, issued: readonly string[], queue: ScriptQueue, state: FakeAnthropicState): HttpReply {
  const path = /^\/v1\/projects\/([^/]+)\/locations\/([^/]+)\/publishers\/anthropic\/models\/([^/:]+):rawPredict$/.exec(req.path.split('?')[0]!);
  if (req.method !== 'POST' || !path) return googleError(404, 'NOT_FOUND', `The requested URL ${req.path} was not found on this server.`);
  const token = (req.headers['authorization'] ?? '').replace(/^Bearer /, '');
  if (!issued.includes(token)) {
    return googleError(401, 'UNAUTHENTICATED', 'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential.');
  }
  const [, project, region, model] = path.map((p) => decodeURIComponent(p ?? ''));
  if (project !== options.project || region !== options.region) return googleError(403, 'PERMISSION_DENIED', `Permission denied on resource project ${project} (location ${region}).`);
  const { anthropic_version: version, ...body } = (req.body ?? {}) as Record<string, unknown>;
  if ('model' in body) return error(400, 'model: Extra inputs are not permitted', index);
  if (typeof version !== 'string' || !VERSIONS.includes(version)) return error(400, `anthropic_version: Input should be ${VERSIONS.map((v) => `'${v}'`).join(' or ')}`, index);
  // This fake's own reading of a Vertex id: `claude-haiku-4-5@20251001` is Anthropic's `claude-haiku-4-5-20251001`.
  const messages = { ...body, model: model!.replace('@', '-') };
  const invalid = validate(messages, state, version.startsWith('vertex-') ? '2023-06-01' : version);
  if (invalid) return error(400, invalid, index);
  const scripted = queue.next(body, index);
  if (!scripted) return error(418, `fake vertex: no scripted reply for request #${index}`, index);
  const { reply, delayMs } = resolveDelay(scripted);
  if (!('text' in reply || 'toolCalls' in reply || 'json' in reply)) throw new Error('fake vertex answers text, tool calls or JSON only');
  return { status: 200, body: JSON.stringify(toMessage(reply, messages, index, { options: {}, state })), delayMs };
}
