/**
 * Raw Gemini API bodies as a recording fetch sees them, JSON or streamed (`:streamGenerateContent`
 * with `alt=sse`: each event a GenerateContentResponse). Shapes as in `@google/genai`'s types
 * (GenerateContentResponse, Part.functionCall, Part.functionResponse).
 */
import { isObject, type Json } from '../../json-body.js';
import { nonEmptyString, objects, resultValue, type BodyUsage, type DryRunAnswer, type StreamReading, type WireBodies, type WireToolCall, type WireToolResult } from '../../wire-bodies.js';
import { fromGeminiUsage } from './gemini-usage.js';
import { pushAll } from '../../../core/push-all.js';

function usageFromJson(body: Json): BodyUsage | undefined {
  if (!isObject(body.usageMetadata)) return undefined;
  return { usage: fromGeminiUsage(body.usageMetadata), model: typeof body.modelVersion === 'string' ? body.modelVersion : undefined };
}

/** Each streamed chunk carries the usage so far: the last one holds the call's. */
function streamUsage(): StreamReading<BodyUsage | undefined> {
  let last: BodyUsage | undefined;
  return {
    event(event) {
      last = usageFromJson(event) ?? last;
    },
    result: () => last,
  };
}

/** The function calls of the first candidate's parts. */
function toolCallsFromJson(body: Json): WireToolCall[] {
  const candidate = objects(body.candidates)[0];
  const content = candidate && isObject(candidate.content) ? candidate.content : undefined;
  return objects(content?.parts).flatMap((p) =>
    isObject(p.functionCall) && typeof p.functionCall.name === 'string' ? [{ id: nonEmptyString(p.functionCall.id), name: p.functionCall.name, args: p.functionCall.args ?? {} }] : [],
  );
}

/** A streamed function call comes whole in one chunk's part. */
function streamToolCalls(): StreamReading<WireToolCall[]> {
  const calls: WireToolCall[] = [];
  return {
    event(event) {
      pushAll(calls, toolCallsFromJson(event));
    },
    result: () => calls,
  };
}

/** The `functionResponse` parts of the user turns; a call without an id is joined by its name. */
function toolResultsFromRequest(body: Json): WireToolResult[] {
  return objects(body.contents)
    .filter((c) => c.role === 'user')
    .flatMap((c) => objects(c.parts))
    .flatMap((p) => {
      const r = isObject(p.functionResponse) ? p.functionResponse : undefined;
      if (!r || typeof r.name !== 'string') return [];
      const response = isObject(r.response) ? r.response : {};
      const isError = response.error !== undefined && response.output === undefined;
      const value = isError ? response.error : 'output' in response ? response.output : response;
      return [{ id: nonEmptyString(r.id) ?? r.name, result: resultValue(value), isError }];
    });
}

function dryRunAnswer(path: string, model: string, stream: boolean, reply: string): DryRunAnswer | undefined {
  const method = /:(generateContent|streamGenerateContent)$/.exec(path)?.[1];
  if (!method) return undefined;
  const answer = {
    candidates: [{ content: { role: 'model', parts: [{ text: reply }] }, finishReason: 'STOP', index: 0 }],
    usageMetadata: { promptTokenCount: 0, candidatesTokenCount: 0, totalTokenCount: 0 },
    modelVersion: model,
  };
  return stream ? { events: [{ data: answer }] } : { json: answer };
}

export const GEMINI_BODIES: WireBodies = { usageFromJson, streamUsage, toolCallsFromJson, streamToolCalls, toolResultsFromRequest, dryRunAnswer };
