/**
 * A small path reader for `jsonPath`: `$.order.id`, `order.items[0].sku`, `$["odd key"][2]`.
 * Only member and index access: no wildcards or filters, so every path names one value.
 */

export type PathSegment = string | number;

export type ParsedPath = { ok: true; segments: PathSegment[] } | { ok: false; error: string };

const IDENT = /^[^.[\]\s"']+/;

export function parsePath(path: string): ParsedPath {
  const segments: PathSegment[] = [];
  let rest = path.trim();
  if (rest.startsWith('$')) rest = rest.slice(1);
  else if (rest !== '' && !rest.startsWith('[')) rest = `.${rest}`; // bare `order.id` reads as `$.order.id`
  while (rest !== '') {
    if (rest.startsWith('.')) {
      const m = IDENT.exec(rest.slice(1));
      if (!m) return { ok: false, error: `expected a key after "." at ${quoteAt(path, rest)}` };
      segments.push(m[0]);
      rest = rest.slice(1 + m[0].length);
      continue;
    }
    const bracket = /^\[\s*(?:(\d+)|"((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)')\s*\]/.exec(rest);
    if (!bracket) return { ok: false, error: `expected ".key", "[index]" or "[\\"key\\"]" at ${quoteAt(path, rest)}` };
    if (bracket[1] !== undefined) segments.push(Number(bracket[1]));
    else segments.push((bracket[2] ?? bracket[3] ?? '').replace(/\\(.)/g, '$1'));
    rest = rest.slice(bracket[0].length);
  }
  return { ok: true, segments };
}

function quoteAt(path: string, rest: string): string {
  return `char ${path.length - rest.length + 1} of ${JSON.stringify(path)}`;
}

export type PathRead = { found: true; value: unknown } | { found: false; missing: string };

/** Follows the segments; `missing` says which step failed, for the failure message. */
export function readPath(root: unknown, segments: readonly PathSegment[]): PathRead {
  let current = root;
  let at = '$';
  for (const seg of segments) {
    const next = typeof seg === 'number' ? `${at}[${seg}]` : `${at}.${seg}`;
    if (typeof seg === 'number') {
      if (!Array.isArray(current)) return { found: false, missing: `${at} is not an array` };
      if (seg >= current.length) return { found: false, missing: `${next} is out of range (length ${current.length})` };
      current = current[seg];
    } else {
      // Own keys only, so "constructor" or "__proto__" never read the prototype.
      if (typeof current !== 'object' || current === null || Array.isArray(current)) {
        return { found: false, missing: `${at} is not an object` };
      }
      if (!Object.hasOwn(current, seg)) return { found: false, missing: `${next} does not exist` };
      current = (current as Record<string, unknown>)[seg];
    }
    at = next;
  }
  return { found: true, value: current };
}
