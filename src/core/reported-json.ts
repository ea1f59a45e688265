const texts = new WeakMap<object, string>();

/**
 * The JSON text of a reported case (JSON.stringify, no spaces), made once however many edges need
 * it: the secret redactor searches it, the results file and the HTML report write it. Only for
 * values nobody changes once reported (the runner's cases): the text is kept as long as the value
 * lives. Undefined for what JSON refuses (a cycle, a BigInt): each edge then does as it would alone.
 */
export function reportedJson(value: object): string | undefined {
  let text = texts.get(value);
  if (text === undefined) {
    try {
      text = JSON.stringify(value);
    } catch {
      return undefined;
    }
    if (text !== undefined) texts.set(value, text);
  }
  return text;
}
