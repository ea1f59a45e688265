/**
 * A long text cut to its start, with a marker saying how much there was: a reader (a judge, a
 * reviewer) can tell a cut text from a short one. Never splits a surrogate pair, which would leave
 * half a character. Cut only after the run's secrets are redacted, so no part of one is kept.
 */
export function cutText(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  let end = maxChars;
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end -= 1;
  return `${text.slice(0, end)}\n…[truncated: ${text.length.toLocaleString('en-US')} characters, showing the first ${end.toLocaleString('en-US')}]`;
}
