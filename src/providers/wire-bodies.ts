/**
 * What a wire reads off the raw bodies a recording fetch sees (the SDK clients handed to function
 * targets, `ctx.fetch()`): usage, tool calls and tool results, JSON or streamed, and the placeholder
 * answer of a dry run. Each wire's descriptor brings its own (wires/<id>/bodies.ts); the helpers
 * here are what every wire's reading shares.
 */
import type { TokenUsage } from '../core/usage.js';
import { isObject, safeParse, type Json } from './json-body.js';

/** One model call's usage as read off a response body, and the model the server says answered. */
export interface BodyUsage {
  usage: TokenUsage;
  model: string | undefined;
}

/** What is read off a streamed response, fed its events one by one (one pass over the stream). */
export interface StreamReading<T> {
  event(event: Json): void;
  result(): T;
}

/** A tool call as a response asks for it; its `id` joins it with its result in a later request. */
export interface WireToolCall {
  id: string | undefined;
  name: string;
  args: unknown;
}

/** A tool result as a request sends it back to the model. */
export interface WireToolResult {
  id: string;
  result: unknown;
  isError: boolean;
}

export interface WireBodies {
  /** Usage of a JSON response; undefined when the body reports none (model lists, token counts), which is then not a call. */
  usageFromJson(body: Json): BodyUsage | undefined;
  /** Usage of a streamed (server-sent events) response. */
  streamUsage(): StreamReading<BodyUsage | undefined>;
  /** The tool calls of a JSON response. */
  toolCallsFromJson(body: Json): WireToolCall[];
  /** The tool calls of a streamed response, fed its events in order. */
  streamToolCalls(): StreamReading<WireToolCall[]>;
  /** The tool results a request sends back (a request holds its whole history: the caller keeps the first). */
  toolResultsFromRequest(body: Json): WireToolResult[];
  /**
   * `--dry-run`: the answer to a request for `path`, in the wire's own format (JSON, or events when
   * `stream`), carrying `reply` and zero usage so the real SDK parses it as usual; undefined for a
   * path the wire has no answer for.
   */
  dryRunAnswer(path: string, model: string, stream: boolean, reply: string): DryRunAnswer | undefined;
}

/** A placeholder answer: one JSON body, or the events of a stream (`data` as JSON, or a string as sent). */
export type DryRunAnswer = { json: unknown } | { events: Array<{ event?: string; data: unknown }> };

export function objects(v: unknown): Json[] {
  return Array.isArray(v) ? v.filter(isObject) : [];
}

export function nonEmptyString(v: unknown): string | undefined {
  return typeof v === 'string' && v !== '' ? v : undefined;
}

/** Arguments as the model wrote them: parsed JSON, the raw text when not JSON, `{}` when empty. */
export function parseArgs(args: unknown): unknown {
  if (typeof args !== 'string') return args;
  if (args.trim() === '') return {};
  const parsed = safeParse(args);
  return parsed === undefined ? args : parsed;
}

/** A result's content: its text (parsed when it is a JSON object or array), or the parts as sent when not all text. */
export function resultValue(content: unknown): unknown {
  let text: string | undefined;
  if (typeof content === 'string') text = content;
  else if (Array.isArray(content) && content.every((p) => isObject(p) && typeof p.text === 'string')) text = (content as Json[]).map((p) => p.text as string).join('');
  if (text === undefined) return content;
  const parsed = /^\s*[[{]/.test(text) ? safeParse(text) : undefined;
  return typeof parsed === 'object' && parsed !== null ? parsed : text;
}

export function finiteOrZero(v: unknown): number {
  return typeof v === 'number' && Number.isFinite(v) ? v : 0;
}

/** Unix seconds, as the wires date a response. */
export const createdNow = (): number => Math.floor(Date.now() / 1000);
