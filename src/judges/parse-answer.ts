import { JudgeResponseError } from '../core/errors.js';
import type { Usage } from '../core/usage.js';
import type { ResponseContract, Verdict } from './criteria/template.js';

/**
 * A judge's answer text on `output` read against its criterion's contract, as every text-answering
 * judge does: an answer that is not JSON or breaks the contract is a JudgeResponseError carrying what it spent.
 */
export function readJudgeAnswer(contract: ResponseContract, text: string, spent: Usage, output: string): Verdict {
  let parsed: unknown;
  try {
    parsed = parseJudgeAnswer(text);
  } catch (err) {
    throw new JudgeResponseError((err as Error).message, text, spent);
  }
  const verdict = contract.read(parsed, output);
  if (typeof verdict === 'string') throw new JudgeResponseError(verdict, text, spent);
  return verdict;
}

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
