/** Small formatting helpers so every message reads the same way. */

const MAX_QUOTE = 60;

/** A JSON-quoted string, cut to a readable length (messages end up in terminals and JUnit). */
export function quote(s: string, max = MAX_QUOTE): string {
  const chars = [...s];
  return JSON.stringify(chars.length > max ? chars.slice(0, max).join('') + '…' : s);
}

/** Any value as compact JSON, cut like `quote`. */
export function show(value: unknown, max = MAX_QUOTE): string {
  if (value === undefined) return 'undefined';
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  const chars = [...text];
  return chars.length > max ? chars.slice(0, max).join('') + '…' : text;
}

export function plural(n: number, word: string, words = `${word}s`): string {
  return `${n} ${n === 1 ? word : words}`;
}

/** `[a, b, c]` for names, unquoted, as in `toolOrder [a, b]`. */
export function nameList(names: readonly string[]): string {
  return `[${names.join(', ')}]`;
}

/** `["a", "b"]` for user-given strings, quoted so spaces and commas stay visible. */
export function quotedList(values: readonly string[]): string {
  return `[${values.map((v) => quote(v)).join(', ')}]`;
}

/** Length in characters (code points), the unit users count in, not UTF-16 units. */
export function charLength(s: string): number {
  let n = 0;
  for (const _ of s) n++;
  return n;
}

export function replySize(reply: string): string {
  return `reply (${plural(charLength(reply), 'char')})`;
}

/** 1 when the condition holds, else 0: most deterministic checks are all-or-nothing. */
export function binary(ok: boolean): number {
  return ok ? 1 : 0;
}

/** Text as compared: lowered when the match ignores case (`sensitive` false). */
export function foldCase(s: string, sensitive: boolean | undefined): string {
  return sensitive === false ? s.toLowerCase() : s;
}

/** At most this many items (calls, places) are named in one message. */
export const MAX_NAMED = 5;

/** `a, b, c, … 2 more`: the first `MAX_NAMED` of `total` items, already written, and how many were left out. */
export function namedFew(shown: readonly string[], total: number): string {
  return shown.join(', ') + (total > shown.length ? `, … ${total - shown.length} more` : '');
}
