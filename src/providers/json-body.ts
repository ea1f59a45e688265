/** Reading the JSON of model calls off the wire: request bodies, responses, server-sent events. */
export type Json = Record<string, unknown>;

export function isObject(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function safeParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Each JSON object of a server-sent event stream's `data:` lines, in order (`[DONE]` and non-JSON skipped). */
export function forEachEvent(text: string, visit: (event: Json) => void): void {
  for (const line of text.split('\n')) {
    if (!line.startsWith('data:')) continue;
    const data = line.slice(5).trim();
    if (data === '' || data === '[DONE]') continue;
    const event = safeParse(data);
    if (isObject(event)) visit(event);
  }
}
