/**
 * JSON text made safe to sit inside a `<script type="application/json">` block: `<` (so no
 * `</script>` or `<!--` in a reply can close or bend the block), `>` and `&` become `\u` escapes, as do
 * U+2028/U+2029. Each of these can only occur inside a JSON string, where the escape means the same
 * character, so `JSON.parse` of the block's text gives back the original data.
 */
export function scriptSafeJson(json: string): string {
  return json.replace(/[<>&\u2028\u2029]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
