/**
 * Untrusted text (agent replies, tool output, ids) shown on a terminal or in CI logs: control
 * characters (ESC, OSC, BEL, C1) and bidi controls are made visible as escapes, so a text can never
 * move the cursor, recolour output or reorder what the reader sees.
 */
export function terminalSafe(text: string): string {
  return text
    // eslint-disable-next-line no-control-regex -- matching control characters is the point: they are shown escaped, never sent to the terminal
    .replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g, (ch) => `\\x${ch.charCodeAt(0).toString(16).padStart(2, '0')}`)
    .replace(/[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16)}`);
}

/** One line of at most `max` characters, for showing a value inside a message. */
export function oneLine(text: string, max = 200): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}
