import type { Wire } from '../providers/capabilities.js';
import { isObject } from '../providers/json-body.js';
import type { BodyUsage, StreamReading } from '../providers/wire-bodies.js';
import { wireDescriptor } from '../providers/wires.js';

export type { BodyUsage, StreamReading };

/**
 * Usage of a JSON response, as its wire reads it (wires/<id>/bodies.ts). Undefined when the body
 * reports none (model lists, token counts), which is then not a call to count.
 */
export function usageFromJson(wire: Wire, body: unknown): BodyUsage | undefined {
  return isObject(body) ? wireDescriptor(wire).bodies.usageFromJson(body) : undefined;
}

/** Usage of a streamed (server-sent events) response, fed its events in order. */
export function streamUsage(wire: Wire): StreamReading<BodyUsage | undefined> {
  return wireDescriptor(wire).bodies.streamUsage();
}
