import type { Wire } from '../providers/capabilities.js';
import { isObject } from '../providers/json-body.js';
import type { StreamReading, WireToolCall, WireToolResult } from '../providers/wire-bodies.js';
import { wireDescriptor } from '../providers/wires.js';

/**
 * The tool calls an agent's model asked for, read off the responses that pass through a recording
 * fetch, and their results, read off the requests that follow, as each wire reads them
 * (wires/<id>/bodies.ts): any provider speaking a wire (an OpenAI-compatible server) is read the same way.
 */
export type { WireToolCall, WireToolResult };

/** The tool calls of a JSON response. */
export function toolCallsFromJson(wire: Wire, body: unknown): WireToolCall[] {
  return isObject(body) ? wireDescriptor(wire).bodies.toolCallsFromJson(body) : [];
}

/** The tool calls of a streamed response, fed its events in order. */
export function streamToolCalls(wire: Wire): StreamReading<WireToolCall[]> {
  return wireDescriptor(wire).bodies.streamToolCalls();
}

/** The tool results a request sends back. A request holds its whole history, so earlier results come again; the caller keeps the first. */
export function toolResultsFromRequest(wire: Wire, body: unknown): WireToolResult[] {
  return isObject(body) ? wireDescriptor(wire).bodies.toolResultsFromRequest(body) : [];
}
