import { configure } from 'safe-stable-stringify';

type Replacer = (key: string, value: unknown) => unknown;

const fallback = configure({ circularValue: '[Circular]', deterministic: false });

/**
 * JSON text of anything a target or a user module hands over. Plain JSON.stringify first (the
 * common case, and the fastest); only a value it refuses — a circular reference, a BigInt — goes
 * through the safe serializer, which writes `"[Circular]"` for the loop and `"123n"` for a BigInt.
 */
export function safeJson(value: unknown, replacer?: Replacer, space?: number): string | undefined {
  try {
    return JSON.stringify(value, replacer, space);
  } catch {
    const marked: Replacer = (key, v) => {
      const out = replacer ? replacer(key, v) : v;
      return typeof out === 'bigint' ? `${out}n` : out;
    };
    return fallback(value, marked, space);
  }
}
