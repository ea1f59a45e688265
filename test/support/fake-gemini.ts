/**
 * A fake Gemini API (generateContent) speaking the real REST format, for `@google/genai` to talk to
 * through `httpOptions.baseUrl`: `POST /v1beta/models/{model}:generateContent`, the key in the
 * `x-goog-api-key` header, errors as `{ error: { code, message, status } }`. Like the real API
 * (Gemini API docs, read 2026-12-04: generateContent reference, Function calling, Thought
 * signatures, Structured output, Thinking) it answers 400 INVALID_ARGUMENT to: a body field, a
 * generationConfig field or a part field the API does not define ("Unknown name"); a
 * `thinkingConfig` with both a level and a budget; `responseSchema` beside `responseJsonSchema`, or a
 * JSON Schema keyword outside the supported list; a function declaration with both `parameters`
 * and `parametersJsonSchema`; a `functionResponse` whose call is not in the model turn right before
 * it, or a count of responses that differs from that turn's calls; and, on a Gemini 3 model, a
 * function-call turn of the current step whose first call lost its thought signature, or carries one
 * this fake did not issue. A missing key is 403 PERMISSION_DENIED, a wrong one 400 API_KEY_INVALID.
 * What it knows of models is its own (a `gemini-3` id signs its function calls and thinks), never
 * the project's table.
 */
import { randomBytes } from 'node:crypto';
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

export interface FakeGeminiOptions {
  script?: Script;
  /** When set, any other key gets a 400 API_KEY_INVALID. */
  apiKey?: string;
  /** Model version reported in replies (default: the requested model). */
  modelVersion?: string;
}

export interface FakeGemini extends FakeProvider {
  /** The thought signatures this fake issued (a replayed one must be among them). */
  signatures: Set<string>;
}

export async function startFakeGemini(options: FakeGeminiOptions = {}): Promise<FakeGemini> {
  const queue = new ScriptQueue(options.script);
  const signatures = new Set<string>();
  const server = await startFakeServer((req, index) => handle(req, index, queue, options, signatures));
  return Object.assign(asFakeProvider(server, server.origin, queue), { signatures });
}

const CALL = /^\/v1beta\/models\/([^/:]+):generateContent$/;

function handle(req: CapturedRequest, index: number, queue: ScriptQueue, options: FakeGeminiOptions, signatures: Set<string>): HttpReply {
  const path = req.path.split('?')[0]!;
  const model = CALL.exec(path)?.[1];
  if (req.method !== 'POST' || model === undefined) return error(404, `Method not found: ${req.method} ${path}`, 'NOT_FOUND');
  const key = req.headers['x-goog-api-key'];
  if (!key)
    return error(
      403,
      "Method doesn't allow unregistered callers (callers without established identity). Please use API Key or other form of API consumer identity to call this API.",
      'PERMISSION_DENIED',
    );
  if (options.apiKey !== undefined && key !== options.apiKey) return error(400, 'API key not valid. Please pass a valid API key.', 'INVALID_ARGUMENT');
  const invalid = validate(req.body, model, signatures);
  if (invalid) return error(400, invalid, 'INVALID_ARGUMENT');

  const scripted = queue.next(req.body, index);
  if (!scripted) return error(418, `fake gemini: no scripted reply for request #${index}`, 'UNKNOWN');
  const { reply, delayMs } = resolveDelay(scripted);
  return { ...toHttp(reply, req.body, model, options, signatures), delayMs };
}

function toHttp(s: Scripted, body: any, model: string, options: FakeGeminiOptions, signatures: Set<string>): HttpReply {
  if ('drop' in s) return { drop: true };
  if ('endless' in s) return { endless: true };
  if ('malformed' in s) return { status: 200, body: MALFORMED_BODY };
  if ('status' in s) return { ...error(s.status, s.message ?? STATUS[s.status] ?? 'error', STATUS[s.status] ?? 'UNKNOWN'), headers: retryHeaders(s) };
  return { status: 200, body: JSON.stringify(toResponse(s, body, model, options, signatures)) };
}

const STATUS: Record<number, string> = { 400: 'INVALID_ARGUMENT', 403: 'PERMISSION_DENIED', 404: 'NOT_FOUND', 429: 'RESOURCE_EXHAUSTED', 500: 'INTERNAL', 503: 'UNAVAILABLE' };

function error(code: number, message: string, status: string): HttpReply {
  return { status: code, body: JSON.stringify({ error: { code, message, status } }) };
}

/** A Gemini 3 model signs its function calls; its replies count thinking tokens. */
const signs = (model: string) => model.startsWith('gemini-3');

function toResponse(s: Scripted, body: any, model: string, options: FakeGeminiOptions, signatures: Set<string>) {
  const parts: any[] = [];
  let finishReason = 'STOP';
  const sign = () => {
    const signature = randomBytes(24).toString('base64');
    signatures.add(signature);
    return signature;
  };
  if ('json' in s) {
    const forced = body?.toolConfig?.functionCallingConfig;
    if (body?.generationConfig?.responseMimeType === 'application/json') parts.push({ text: JSON.stringify(s.json) });
    else if (forced?.mode === 'ANY' && forced.allowedFunctionNames?.length === 1) parts.push({ functionCall: { name: forced.allowedFunctionNames[0], args: s.json } });
    else parts.push({ text: JSON.stringify(s.json) });
  } else if ('toolCalls' in s) {
    if (s.text) parts.push({ text: s.text });
    s.toolCalls.forEach((c, i) => parts.push({ functionCall: { ...(c.id ? { id: c.id } : {}), name: c.name, args: c.args }, ...(i === 0 && signs(model) ? { thoughtSignature: sign() } : {}) }));
  } else if ('text' in s) {
    parts.push({ text: s.text });
    if (s.finishReason) finishReason = s.finishReason;
  }
  return {
    candidates: [{ content: { role: 'model', parts }, finishReason, index: 0 }],
    usageMetadata: usage('usage' in s ? s.usage : undefined, model),
    modelVersion: ('model' in s && s.model) || options.modelVersion || model,
    responseId: `fake-${signatures.size}-${parts.length}`,
  };
}

/** `input` is the whole prompt (promptTokenCount, `cached` a part of it); `output` the answer, thinking apart. */
function usage(u: FakeUsage | undefined, model: string) {
  const prompt = u?.input ?? 10;
  const candidates = u?.output ?? 5;
  const thoughts = u?.reasoning ?? (signs(model) ? 7 : undefined);
  return {
    promptTokenCount: prompt,
    candidatesTokenCount: candidates,
    ...(thoughts !== undefined ? { thoughtsTokenCount: thoughts } : {}),
    ...(u?.cached !== undefined ? { cachedContentTokenCount: u.cached } : {}),
    totalTokenCount: prompt + candidates + (thoughts ?? 0),
  };
}

const BODY_FIELDS = new Set(['contents', 'systemInstruction', 'tools', 'toolConfig', 'safetySettings', 'generationConfig', 'cachedContent', 'labels', 'serviceTier']);
const GENERATION_FIELDS = new Set([
  'stopSequences',
  'responseMimeType',
  'responseSchema',
  'responseJsonSchema',
  'responseModalities',
  'candidateCount',
  'maxOutputTokens',
  'temperature',
  'topP',
  'topK',
  'seed',
  'presencePenalty',
  'frequencyPenalty',
  'responseLogprobs',
  'logprobs',
  'speechConfig',
  'thinkingConfig',
  'mediaResolution',
]);
const THINKING_FIELDS = new Set(['includeThoughts', 'thinkingBudget', 'thinkingLevel']);
const PART_FIELDS = new Set([
  'text',
  'inlineData',
  'fileData',
  'functionCall',
  'functionResponse',
  'thought',
  'thoughtSignature',
  'executableCode',
  'codeExecutionResult',
  'videoMetadata',
  'partMetadata',
  'mediaResolution',
]);
const DECLARATION_FIELDS = new Set(['name', 'description', 'behavior', 'parameters', 'parametersJsonSchema', 'response', 'responseJsonSchema']);
const SCHEMA_KEYWORDS = new Set([
  '$id',
  '$defs',
  '$ref',
  '$anchor',
  'type',
  'format',
  'title',
  'description',
  'enum',
  'items',
  'prefixItems',
  'minItems',
  'maxItems',
  'minimum',
  'maximum',
  'anyOf',
  'oneOf',
  'properties',
  'additionalProperties',
  'required',
  'propertyOrdering',
]);

const unknown = (where: string, name: string) => `Invalid JSON payload received. Unknown name "${name}" at '${where}': Cannot find field.`;

/** The checks the real endpoint makes that our mapping could get wrong. */
function validate(body: any, model: string, signatures: Set<string>): string | undefined {
  if (!body || typeof body !== 'object') return 'Invalid JSON payload received.';
  for (const f of Object.keys(body)) if (!BODY_FIELDS.has(f)) return unknown('', f);
  if (!Array.isArray(body.contents) || body.contents.length === 0) return '* GenerateContentRequest.contents: contents is not specified';
  const gen = body.generationConfig ?? {};
  for (const f of Object.keys(gen)) if (!GENERATION_FIELDS.has(f)) return unknown('generation_config', f);
  const thinking = gen.thinkingConfig ?? {};
  for (const f of Object.keys(thinking)) if (!THINKING_FIELDS.has(f)) return unknown('generation_config.thinking_config', f);
  if (thinking.thinkingLevel !== undefined && thinking.thinkingBudget !== undefined) return 'You can only set one of thinking budget and thinking level.';
  if (gen.responseSchema !== undefined && gen.responseJsonSchema !== undefined) return 'generation_config.response_schema and generation_config.response_json_schema cannot both be set.';
  if ((gen.responseSchema !== undefined || gen.responseJsonSchema !== undefined) && gen.responseMimeType !== 'application/json')
    return 'response_mime_type must be application/json when a response schema is set.';
  const keyword = gen.responseJsonSchema !== undefined ? unsupportedKeyword(gen.responseJsonSchema) : undefined;
  if (keyword) return `generation_config.response_json_schema: keyword "${keyword}" is not supported.`;
  for (const tool of body.tools ?? []) {
    for (const d of tool.functionDeclarations ?? []) {
      for (const f of Object.keys(d)) if (!DECLARATION_FIELDS.has(f)) return unknown('tools[0].function_declarations[0]', f);
      if (typeof d.name !== 'string' || d.name === '') return '* GenerateContentRequest.tools[0].function_declarations[0].name: Name cannot be empty.';
      if (d.parameters !== undefined && d.parametersJsonSchema !== undefined) return 'parameters and parameters_json_schema cannot both be set.';
    }
  }
  for (const [i, c] of body.contents.entries()) {
    if (c.role !== 'user' && c.role !== 'model') return `Please use a valid role: user, model. (contents[${i}].role: ${JSON.stringify(c.role)})`;
    for (const p of c.parts ?? []) for (const f of Object.keys(p)) if (!PART_FIELDS.has(f)) return unknown(`contents[${i}].parts[0]`, f);
  }
  return functionTurns(body.contents) ?? (signs(model) ? signatureProblem(body.contents, signatures) : undefined);
}

function unsupportedKeyword(node: unknown): string | undefined {
  if (Array.isArray(node)) return node.map(unsupportedKeyword).find(Boolean);
  if (typeof node !== 'object' || node === null) return undefined;
  for (const [k, v] of Object.entries(node)) {
    if (!SCHEMA_KEYWORDS.has(k)) return k;
    const inner =
      k === 'properties' || k === '$defs'
        ? Object.values(v as object)
            .map(unsupportedKeyword)
            .find(Boolean)
        : k === 'enum' || k === 'required' || k === 'propertyOrdering'
          ? undefined
          : unsupportedKeyword(v);
    if (inner) return inner;
  }
  return undefined;
}

const calls = (c: any): any[] => (c?.parts ?? []).filter((p: any) => p.functionCall).map((p: any) => p.functionCall);
const responses = (c: any): any[] => (c?.parts ?? []).filter((p: any) => p.functionResponse).map((p: any) => p.functionResponse);

/** Each turn of function responses answers the model turn right before it: as many, by name (and id when the call had one). */
function functionTurns(contents: any[]): string | undefined {
  for (const [i, c] of contents.entries()) {
    const answered = responses(c);
    if (answered.length === 0) continue;
    const asked = calls(contents[i - 1]);
    if (c.role !== 'user' || contents[i - 1]?.role !== 'model' || asked.length === 0) {
      return `Please ensure that function response turn comes immediately after a function call turn. (contents[${i}])`;
    }
    if (asked.length !== answered.length) {
      return 'Please ensure that the number of function response parts is equal to the number of function call parts of the function call turn.';
    }
    for (const r of answered) {
      const match = asked.find((call) => call.name === r.name && (call.id === undefined || call.id === r.id));
      if (!match) return `contents[${i}]: function response "${r.name}"${r.id ? ` (id ${r.id})` : ''} does not match any function call of the previous turn.`;
    }
  }
  return undefined;
}

/**
 * The current step (the turns after the last user text): each model turn with function calls must
 * carry, on its first call, a signature this fake issued (Gemini API docs: Thought signatures,
 * "strict validation on the current turn" for function calling on Gemini 3 models).
 */
function signatureProblem(contents: any[], signatures: Set<string>): string | undefined {
  const lastText = contents.findLastIndex((c) => c.role === 'user' && (c.parts ?? []).some((p: any) => typeof p.text === 'string'));
  for (let i = lastText + 1; i < contents.length; i++) {
    const c = contents[i];
    if (c.role !== 'model') continue;
    const first = (c.parts ?? []).find((p: any) => p.functionCall);
    if (!first) continue;
    if (typeof first.thoughtSignature !== 'string') {
      return `Function call is missing a thought_signature in functionCall parts. This is required for tools to work correctly, and missing thought_signature may lead to degraded model performance. Additional data, function call \`default_api:${first.functionCall.name}\` , position ${i + 1}.`;
    }
    if (!signatures.has(first.thoughtSignature)) return `Corrupted thought signature. (contents[${i}])`;
  }
  return undefined;
}
