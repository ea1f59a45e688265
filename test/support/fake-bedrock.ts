/**
 * A fake Amazon Bedrock runtime endpoint for Claude: `POST /model/{modelId}/invoke` with the Bedrock
 * body (the Messages body with `anthropic_version` and without `model`, which is in the path),
 * answered in the Messages format. Like Bedrock it checks the AWS Signature Version 4 of every
 * request, recomputed from the test's credentials with `@smithy/signature-v4` (the signer of the
 * Bedrock SDK), and refuses with a 403 in Bedrock's error shape (`{"message"}`, `x-amzn-ErrorType`) a
 * request that is unsigned, signed with an unknown access key, for another region or service, or
 * whose signature does not match (Amazon Bedrock API reference: InvokeModel, common errors; read
 * 2026-12-04). The body is then checked as the Anthropic fake checks a Messages body (fake-anthropic.ts).
 *
 * `anthropic_version`: Bedrock's docs name `bedrock-2023-05-31`; the official Bedrock SDK (1.1.4)
 * sends its API version header's value (`2026-10-21`) there. Both are taken; another value or none
 * is a ValidationException.
 */
import { Sha256 } from '@aws-crypto/sha256-js';
import { HttpRequest } from '@smithy/protocol-http';
import { SignatureV4 } from '@smithy/signature-v4';
import { toMessage, validate, type FakeAnthropicOptions, type FakeAnthropicState } from './fake-anthropic.js';
import { asFakeProvider, resolveDelay, ScriptQueue, startFakeServer, type CapturedRequest, type FakeProvider, type HttpReply, type Script } from './fake-server.js';

export interface AwsTestCredentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
}

export interface FakeBedrockOptions {
  script?: Script;
  credentials: AwsTestCredentials;
  /** The region requests must be signed for (default us-east-1). */
  region?: string;
  thinking?: FakeAnthropicOptions['thinking'];
}

export interface FakeBedrock extends FakeProvider {
  /** Requests whose signature this fake recomputed and found matching. */
  readonly verified: number;
}

const VERSIONS = ['bedrock-2023-05-31', '2026-10-21'];

export async function startFakeBedrock(options: FakeBedrockOptions): Promise<FakeBedrock> {
  const queue = new ScriptQueue(options.script);
  const state: FakeAnthropicState = { signatures: new Map(), redacted: new Set() };
  let verified = 0;
  const server = await startFakeServer(async (req, index) => {
    const refused = await checkSignature(req, options.credentials, options.region ?? 'us-east-1');
    if (refused) return refused;
    verified++;
    return handle(req, index, queue, { options: { thinking: options.thinking }, state });
  });
  // A getter on the object itself: Object.assign would copy its first value.
  return Object.defineProperty(asFakeProvider(server, server.origin, queue), 'verified', { get: () => verified, enumerable: true }) as FakeBedrock;
}

function awsError(status: number, type: string, message: string): HttpReply {
  return { status, headers: { 'x-amzn-errortype': `${type}:http://internal.amazon.com/coral/com.amazon.coral.service/`, 'x-amzn-requestid': 'fake-request-id' }, body: JSON.stringify({ message }) };
}

const AUTH = /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/([^/]+)\/aws4_request, ?SignedHeaders=([a-z0-9;-]+), ?Signature=([0-9a-f]{64})$/;

/** Undefined when the request carries a valid SigV4 signature of these credentials; else Bedrock's 403. */
async function checkSignature(req: CapturedRequest, creds: AwsTestCredentials, region: string): Promise<HttpReply | undefined> {
  const auth = AUTH.exec(req.headers['authorization'] ?? '');
  if (!auth) return awsError(403, 'MissingAuthenticationTokenException', 'Missing Authentication Token');
  const [, keyId, , scopeRegion, service, signedHeaders, signature] = auth;
  if (keyId !== creds.accessKeyId) return awsError(403, 'UnrecognizedClientException', 'The security token included in the request is invalid.');
  if (scopeRegion !== region || service !== 'bedrock') {
    return awsError(403, 'InvalidSignatureException', `Credential should be scoped to a valid region and service: '${region}' 'bedrock', not '${scopeRegion}' '${service}'.`);
  }
  if (creds.sessionToken !== undefined && req.headers['x-amz-security-token'] !== creds.sessionToken) {
    return awsError(403, 'UnrecognizedClientException', 'The security token included in the request is invalid.');
  }
  const amzDate = req.headers['x-amz-date'] ?? '';
  const date = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(amzDate);
  if (!date) return awsError(403, 'IncompleteSignatureException', "Authorization header requires existence of either a 'X-Amz-Date' or a 'Date' header.");
  const [pathname, search = ''] = req.path.split('?');
  const query: Record<string, string | string[]> = {};
  for (const [k, v] of new URLSearchParams(search)) query[k] = v;
  const headers = Object.fromEntries(signedHeaders!.split(';').map((h) => [h, req.headers[h] ?? '']));
  const host = req.headers['host'] ?? '';
  const request = new HttpRequest({ method: req.method, protocol: 'http:', hostname: host.replace(/:\d+$/, ''), path: pathname!, query, headers, body: req.rawBody });
  const signer = new SignatureV4({ service: 'bedrock', region, credentials: creds, sha256: Sha256 });
  const signingDate = new Date(Date.UTC(+date[1]!, +date[2]! - 1, +date[3]!, +date[4]!, +date[5]!, +date[6]!));
  const expected = (await signer.sign(request, { signingDate })).headers['authorization'] ?? '';
  if (!expected.endsWith(`Signature=${signature}`)) {
    return awsError(
      403,
      'InvalidSignatureException',
      'The request signature we calculated does not match the signature you provided. Check your AWS Secret Access Key and signing method. Consult the service documentation for details.',
    );
  }
  return undefined;
}

/** This fake's own reading of a Bedrock Claude id (an inference profile's geography, `anthropic.`, the `-v1:0` version), not the project's. */
function anthropicModel(modelId: string): string {
  return modelId.replace(/^(?:[a-z-]+\.)?anthropic\./, '').replace(/-v\d+(?::\d+)?$/, '');
}

function handle(req: CapturedRequest, index: number, queue: ScriptQueue, ctx: { options: FakeAnthropicOptions; state: FakeAnthropicState }): HttpReply {
  const invoke = /^\/model\/([^/]+)\/invoke$/.exec(req.path.split('?')[0]!);
  if (req.method !== 'POST' || !invoke) return awsError(404, 'UnknownOperationException', `Unknown operation: ${req.method} ${req.path}`);
  const modelId = decodeURIComponent(invoke[1]!);
  const { anthropic_version: version, ...body } = (req.body ?? {}) as Record<string, unknown>;
  const malformed = (why: string) => awsError(400, 'ValidationException', `Malformed input request: #: ${why}, please reformat your input and try again.`);
  if ('model' in body) return malformed('extraneous key [model] is not permitted');
  if (version === undefined) return malformed('required key [anthropic_version] not found');
  if (typeof version !== 'string' || !VERSIONS.includes(version)) return awsError(400, 'ValidationException', `invalid anthropic_version: ${String(version)}`);
  // The Messages checks, under the API version it names (bedrock-2023-05-31 is the first Messages version's).
  const messages = { ...body, model: anthropicModel(modelId) };
  const invalid = validate(messages, ctx.state, version.startsWith('bedrock-') ? '2023-06-01' : version);
  if (invalid) return awsError(400, 'ValidationException', invalid);
  const scripted = queue.next(body, index);
  if (!scripted) return awsError(400, 'ValidationException', `fake bedrock: no scripted reply for request #${index}`);
  const { reply, delayMs } = resolveDelay(scripted);
  if ('status' in reply) return { ...awsError(reply.status, reply.status === 429 ? 'ThrottlingException' : 'ServiceUnavailableException', reply.message ?? 'fake error'), delayMs };
  if (!('text' in reply || 'toolCalls' in reply || 'json' in reply)) throw new Error('fake bedrock answers text, tool calls or JSON only');
  return { status: 200, headers: { 'x-amzn-requestid': `fake-${index}` }, body: JSON.stringify(toMessage(reply, messages, index, ctx)), delayMs };
}
