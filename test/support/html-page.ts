/** Helpers for tests of the HTML report. */

/** An agent reply and a tool result that would run script if a report rendered them as markup. */
export const HOSTILE_REPLY = '<img src=x onerror=alert(1)>';
export const HOSTILE_RESULT = '</script><script>alert(2)</script>';

/** The page split at its two script blocks. */
export function pageParts(html: string): { data: string; script: string; outside: string } {
  const open = '<script type="application/json" id="results">';
  const a = html.indexOf(open);
  const b = html.indexOf('</script>', a);
  const c = html.indexOf('<script>', b);
  const d = html.indexOf('</script>', c);
  return {
    data: html.slice(a + open.length, b),
    script: html.slice(c + '<script>'.length, d),
    outside: html.slice(0, a) + html.slice(b, c) + html.slice(d),
  };
}
