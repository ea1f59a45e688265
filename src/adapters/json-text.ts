/** Text a framework holds JSON in (tool arguments, span attributes): the parsed value when it is JSON, else the text as it was. */
export function jsonOrText(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}
