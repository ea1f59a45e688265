/**
 * Pure mapping between our request/response shapes and the Gemini API's generateContent, typed by
 * `@google/genai`'s own types. Its enums are values of the SDK, so this module is loaded only with
 * the provider (gemini.ts), on first use.
 */
import {
  FunctionCallingConfigMode,
  ThinkingLevel,
  type Content,
  type FunctionDeclaration,
  type GenerateContentConfig,
  type GenerateContentParameters,
  type GenerateContentResponse,
  type Part,
  type ToolConfig,
} from '@google/genai';
import type { ModelCapabilities } from '../../capabilities.js';
import { capabilitiesOf } from '../../capability-lookup.js';
import { malformed } from '../../errors.js';
import { withRawBody } from '../../raw-body.js';
import { schemaInstruction } from '../../schema-instruction.js';
import type { ChatMessage, CompletionRequest, CompletionResponse, FinishReason, ProviderBlocks, ProviderToolCall } from '../../types.js';
import { GEMINI_TABLE } from './facts.js';
import { toGeminiMediaParts } from './gemini-parts.js';
import { toGeminiResponseSchema } from './gemini-output-schema.js';
import { fromGeminiUsage } from './gemini-usage.js';
import { pushAll } from '../../../core/push-all.js';

/** How every request under one model spec is shaped. */
export interface GeminiOptions {
  /** What the model accepts; default: its family's row in the table, else the wire's default. */
  capabilities?: ModelCapabilities;
  /** The spec's `reasoningEffort` (already checked against the row's `reasoningEfforts`). */
  effort?: string;
  temperature?: number;
  maxTokens?: number;
}

/** The request as the SDK takes it, minus what is per call and not sent (abort signal, headers). */
export type GeminiParams = GenerateContentParameters & { config: GenerateContentConfig };

/**
 * The id a tool call gets when the API gave it none (a model before Gemini 3 may leave
 * `functionCall.id` out): ours, so it is never sent back as if the API had issued it.
 */
const OWN_ID = 'gemini-call-';

/**
 * The generateContent parameters for `req`. A structured answer is asked for the way the model
 * takes it (capabilities.ts): `json_schema` (and `output_config`) as `responseMimeType:
 * 'application/json'` with `responseJsonSchema` (the reply's text is the JSON); `forced_tool` as a
 * function the model must call (mode ANY, that one function allowed); `text` as the schema in the
 * system instruction.
 */
export function toGeminiParams(model: string, req: CompletionRequest, options: GeminiOptions = {}): GeminiParams {
  const caps = options.capabilities ?? capabilitiesOf(GEMINI_TABLE, model);
  const declarations: FunctionDeclaration[] = (req.tools ?? []).map((t) => ({
    name: t.name,
    ...(t.description !== undefined ? { description: t.description } : {}),
    parametersJsonSchema: t.parameters,
  }));
  let toolConfig = toolConfigOf(req.toolChoice);
  const config: GenerateContentConfig = {};
  let systemText = req.system;
  if (req.schema) {
    if (caps.structuredOutput === 'forced_tool') {
      declarations.push({ name: req.schema.name, description: 'Reply by calling this function with your answer as its arguments.', parametersJsonSchema: req.schema.jsonSchema });
      toolConfig = { functionCallingConfig: { mode: FunctionCallingConfigMode.ANY, allowedFunctionNames: [req.schema.name] } };
    } else if (caps.structuredOutput === 'text') {
      systemText = [systemText, schemaInstruction(req.schema.jsonSchema)].filter(Boolean).join('\n\n');
    } else {
      config.responseMimeType = 'application/json';
      config.responseJsonSchema = toGeminiResponseSchema(req.schema.jsonSchema);
    }
  }
  const { system, contents } = toGeminiContents({ system: systemText, messages: req.messages });
  if (system) config.systemInstruction = { parts: [{ text: system }] };
  if (declarations.length > 0) config.tools = [{ functionDeclarations: declarations }];
  if (toolConfig && declarations.length > 0) config.toolConfig = toolConfig;
  const temperature = req.temperature ?? options.temperature;
  if (temperature !== undefined && caps.sampling === 'any') config.temperature = temperature;
  const maxTokens = req.maxTokens ?? options.maxTokens;
  if (maxTokens !== undefined) config.maxOutputTokens = maxTokens;
  if (options.effort !== undefined) config.thinkingConfig = thinkingOf(options.effort);
  return { model, contents, config };
}

const LEVELS: Record<string, ThinkingLevel> = {
  minimal: ThinkingLevel.MINIMAL,
  low: ThinkingLevel.LOW,
  medium: ThinkingLevel.MEDIUM,
  high: ThinkingLevel.HIGH,
};

/**
 * The spec's effort as `thinkingConfig`: Gemini 3 models take a `thinkingLevel` and the 2.5 models
 * a `thinkingBudget`, never both (400); `none` is a budget of 0, which turns thinking off where the
 * model allows it (Gemini API docs: Thinking, "thinking levels" and "thinking budgets", read
 * 2026-12-04). Which values a model takes is its row's `reasoningEfforts`, checked before.
 */
function thinkingOf(effort: string): NonNullable<GenerateContentConfig['thinkingConfig']> {
  const level = LEVELS[effort];
  return level !== undefined ? { thinkingLevel: level } : { thinkingBudget: 0 };
}

function toolConfigOf(choice: CompletionRequest['toolChoice']): ToolConfig | undefined {
  if (choice === undefined) return undefined;
  if (choice === 'auto') return { functionCallingConfig: { mode: FunctionCallingConfigMode.AUTO } };
  if (choice === 'none') return { functionCallingConfig: { mode: FunctionCallingConfigMode.NONE } };
  return { functionCallingConfig: { mode: FunctionCallingConfigMode.ANY, allowedFunctionNames: [choice.name] } };
}

/**
 * System turns go to `systemInstruction`. The assistant is `model`; tool results are
 * `functionResponse` parts of a `user` turn, all of one step's results in the one turn right after
 * the model's calls (Gemini API docs: Function calling, read 2026-12-04), and a user text right after
 * them joins that turn.
 */
export function toGeminiContents(req: Pick<CompletionRequest, 'system' | 'messages'>): { system: string | undefined; contents: Content[] } {
  const systemParts = req.system ? [req.system] : [];
  const contents: Content[] = [];
  for (const m of req.messages) {
    if (m.role === 'system') {
      systemParts.push(m.content);
      continue;
    }
    const parts = partsOf(m);
    if (parts.length === 0) continue;
    const role = m.role === 'assistant' ? 'model' : 'user';
    const last = contents[contents.length - 1];
    if (last && last.role === role) pushAll(last.parts!, parts);
    else contents.push({ role, parts });
  }
  return { system: systemParts.length > 0 ? systemParts.join('\n\n') : undefined, contents };
}

function partsOf(m: Exclude<ChatMessage, { role: 'system' }>): Part[] {
  switch (m.role) {
    case 'user': {
      const media = toGeminiMediaParts(m.attachments);
      return m.content === '' && media.length > 0 ? media : [{ text: m.content }, ...media];
    }
    case 'assistant': {
      if (m.providerBlocks?.wire === GEMINI_TABLE.id) return replayParts(m.providerBlocks);
      const parts: Part[] = m.content !== '' ? [{ text: m.content }] : [];
      for (const c of m.toolCalls ?? []) parts.push({ functionCall: { name: c.name, args: asArgs(c.args), ...apiId(c.id) } });
      return parts;
    }
    case 'tool':
      return [{ functionResponse: { name: m.name, ...apiId(m.toolCallId), response: m.isError ? { error: m.content } : { output: m.content } } }];
  }
}

/** The call's id when the API issued it (sent back so each response finds its call). */
function apiId(id: string): { id?: string } {
  return id.startsWith(OWN_ID) ? {} : { id };
}

/**
 * A model turn sent back as it came: every part in its place, each `thoughtSignature` unchanged. A
 * Gemini 3 model refuses a tool loop whose function-call turn lost its signature (400), and the
 * docs say to return the whole turn with all its parts (Gemini API docs: Thought signatures, read
 * 2026-12-04). Only the fields of a part this project reads are kept.
 */
function replayParts(turn: ProviderBlocks): Part[] {
  const out: Part[] = [];
  for (const raw of turn.blocks) {
    if (typeof raw !== 'object' || raw === null) continue;
    const p = raw as Part;
    const part: Part = {};
    if (typeof p.text === 'string') part.text = p.text;
    if (p.thought === true) part.thought = true;
    if (p.functionCall && typeof p.functionCall.name === 'string') part.functionCall = p.functionCall;
    if (typeof p.thoughtSignature === 'string') part.thoughtSignature = p.thoughtSignature;
    if (Object.keys(part).length > 0) out.push(part);
  }
  return out;
}

/** functionCall args must be an object. */
function asArgs(args: unknown): Record<string, unknown> {
  if (args === undefined || args === null) return {};
  if (typeof args === 'object' && !Array.isArray(args)) return args as Record<string, unknown>;
  return { input: args };
}

/** Why a candidate stopped, where it is not plain `stop`; a safety stop is a refusal. */
const FINISH: Record<string, FinishReason> = {
  MAX_TOKENS: 'length',
  SAFETY: 'refusal',
  RECITATION: 'refusal',
  BLOCKLIST: 'refusal',
  PROHIBITED_CONTENT: 'refusal',
  SPII: 'refusal',
  IMAGE_SAFETY: 'refusal',
  IMAGE_PROHIBITED_CONTENT: 'refusal',
};

/**
 * The reply of the first candidate: its text parts (thought summaries left out), its function calls,
 * usage, why it stopped. A prompt blocked before any candidate (`promptFeedback.blockReason`) and a
 * candidate stopped for safety are refusals, named with their reason. With `schemaName`, a call of
 * that function is the answer: its arguments become the text. A turn carrying thought signatures
 * comes back as `providerBlocks`, to be sent back unchanged.
 */
export function fromGeminiResponse(res: GenerateContentResponse, model: string, schemaName?: string): CompletionResponse {
  if (!res || typeof res !== 'object') throw malformed('google', 'no response object');
  const usage = fromGeminiUsage(res.usageMetadata);
  const served = res.modelVersion ?? model;
  const candidate = res.candidates?.[0];
  if (!candidate) {
    const blocked = res.promptFeedback?.blockReason;
    if (!blocked) throw malformed('google', 'no candidates and no promptFeedback.blockReason');
    const message = res.promptFeedback?.blockReasonMessage;
    const refusal = `the prompt was blocked (${blocked})${message ? `: ${message}` : ''}`;
    return withRawBody({ text: '', toolCalls: [], usage, finishReason: 'refusal', refusal, model: served }, res);
  }
  const parts = candidate.content?.parts ?? [];
  const texts: string[] = [];
  const toolCalls: ProviderToolCall[] = [];
  let structured: string | undefined;
  parts.forEach((p, i) => {
    if (typeof p.text === 'string' && p.thought !== true) texts.push(p.text);
    const call = p.functionCall;
    if (!call || typeof call.name !== 'string') return;
    if (schemaName !== undefined && call.name === schemaName && structured === undefined) structured = JSON.stringify(call.args ?? {});
    else toolCalls.push({ id: call.id ?? `${OWN_ID}${i}`, name: call.name, args: call.args ?? {} });
  });
  const reason = candidate.finishReason ?? 'STOP';
  const mapped = FINISH[reason];
  const finishReason: FinishReason = mapped ?? (reason === 'STOP' ? (toolCalls.length > 0 ? 'tool_calls' : 'stop') : reason);
  const replay = parts.some((p) => typeof p.thoughtSignature === 'string') ? { providerBlocks: { wire: GEMINI_TABLE.id, blocks: parts } } : {};
  const refusal = mapped === 'refusal' ? { refusal: `the answer was stopped (${reason})${candidate.finishMessage ? `: ${candidate.finishMessage}` : ''}` } : {};
  return withRawBody({ text: structured ?? texts.join(''), toolCalls, usage, finishReason, ...refusal, model: served, ...replay }, res);
}
