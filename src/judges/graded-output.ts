/**
 * The output a judge grades is bounded: a 1 MB reply must not become a 250,000-token judge call.
 * Past the limit the judge sees the start and a marker saying how much was left out, so it can
 * tell a cut reply from a short one.
 */
export const DEFAULT_JUDGE_MAX_OUTPUT_CHARS = 100_000;

export function boundGradedOutput(text: string, maxChars: number = DEFAULT_JUDGE_MAX_OUTPUT_CHARS): string {
  if (text.length <= maxChars) return text;
  // Never split a surrogate pair: the cut would leave half a character.
  let end = maxChars;
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end -= 1;
  return `${text.slice(0, end)}\n…[truncated: ${text.length.toLocaleString('en-US')} characters, showing the first ${end.toLocaleString('en-US')}]`;
}
