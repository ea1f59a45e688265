/**
 * The judge's answer as JSON: the whole text, else the first balanced JSON object in it (for
 * models or servers without structured output that wrap JSON in prose or code fences).
 */
export function parseJudgeAnswer(text: string): unknown {
  const trimmed = text.trim();
  try {
    return JSON.parse(trimmed);
  } catch {
    const obj = firstJsonObject(trimmed);
    if (obj === undefined) throw new Error(`not JSON: ${JSON.stringify(trimmed.slice(0, 120))}`);
    return obj;
  }
}

function firstJsonObject(text: string): unknown {
  for (let start = text.indexOf('{'); start !== -1; start = text.indexOf('{', start + 1)) {
    let depth = 0;
    let inString = false;
    for (let i = start; i < text.length; i++) {
      const ch = text[i];
      if (inString) {
        if (ch === '\\') i++;
        else if (ch === '"') inString = false;
      } else if (ch === '"') inString = true;
      else if (ch === '{') depth++;
      else if (ch === '}' && --depth === 0) {
        try {
          return JSON.parse(text.slice(start, i + 1));
        } catch {
          break;
        }
      }
    }
  }
  return undefined;
}
