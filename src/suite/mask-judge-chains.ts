/**
 * A TS check's source with its judge chains masked: `t.judge(…)…`, `t.expectJudge(…)…`,
 * `t.expectJudgeAgainst(…)…` and `t.useJudge(…)` (any receiver name), each from its receiver to the
 * end of its statement, become one placeholder. The case fingerprint hashes what is left, so editing a
 * judge's criteria or model inside `check` is no edit of the case (the judge fingerprint carries it),
 * while adding or removing a judged assertion still is. A small scanner, not a regex: strings,
 * template literals (with `${…}`), comments and regex literals are skipped whole, so a `;` or a `)`
 * inside them ends nothing.
 */
export const JUDGE_CHAIN_PLACEHOLDER = '‹judge›';

const CHAIN = /([A-Za-z_$][\w$]*)\s*\??\.\s*(?:judge|expectJudge|expectJudgeAgainst|useJudge)\s*\(/y;
const IDENT = /[\w$]/;
/** After one of these (or at the start), a `/` opens a regex literal; elsewhere it divides. */
const BEFORE_REGEX = '(,=:[!&|?{};+-*%<>~^';

export function maskJudgeChains(src: string): string {
  let out = '';
  let copied = 0;
  scanCode(src, 0, undefined, (j) => {
    CHAIN.lastIndex = j;
    const m = (j === 0 || !IDENT.test(src[j - 1]!)) && src[j - 1] !== '.' ? CHAIN.exec(src) : null;
    if (!m) return undefined;
    const end = statementEnd(src, j + m[0].length - 1);
    out += src.slice(copied, j) + JUDGE_CHAIN_PLACEHOLDER;
    copied = end;
    return end;
  });
  return out + src.slice(copied);
}

/** What a scan's step says: go on (undefined), jump past a value to an index, or stop at one. */
type Step = undefined | number | { stop: number };

/**
 * The one walk every scan here makes: from `from`, literals and comments skipped whole, `step` shown
 * each other character with its index; `prev` (the last significant character, which tells a regex
 * from a division) is kept up to date. Returns where a step stopped, else the end of the text.
 */
function scanCode(src: string, from: number, prev: string | undefined, step: (j: number, c: string) => Step): number {
  let j = from;
  while (j < src.length) {
    const lit = literalAt(src, j, prev);
    if (lit) {
      j = lit.end;
      if (lit.value) prev = 'a';
      continue;
    }
    const c = src[j]!;
    const next = step(j, c);
    if (typeof next === 'object') return next.stop;
    if (typeof next === 'number') {
      j = next;
      prev = 'a';
      continue;
    }
    if (!/\s/.test(c)) prev = c;
    j++;
  }
  return src.length;
}

/**
 * Where the statement holding the call whose `(` is at `open` ends: at a `;` or `,` outside any
 * bracket, at a bracket closing one opened before the chain, or at a line break not followed by a
 * `.`/`?.` continuing the chain; the end of the text otherwise.
 */
function statementEnd(src: string, open: number): number {
  let depth = 0;
  return scanCode(src, open, '(', (j, c) => {
    if ('([{'.includes(c)) depth++;
    else if (')]}'.includes(c)) {
      if (depth === 0) return { stop: j };
      depth--;
    } else if (depth === 0 && (c === ';' || c === ',')) return { stop: j };
    else if (depth === 0 && c === '\n') {
      const k = significantAfter(src, j);
      if (!(src[k] === '.' || (src[k] === '?' && src[k + 1] === '.'))) return { stop: j };
    }
    return undefined;
  });
}

/** The first character at or after `j` that is neither white space nor inside a comment. */
function significantAfter(src: string, j: number): number {
  while (j < src.length) {
    if (/\s/.test(src[j]!)) j++;
    else if (src.startsWith('//', j) || src.startsWith('/*', j)) j = literalAt(src, j, undefined)!.end;
    else break;
  }
  return j;
}

/**
 * A literal or comment starting at `j`: where it ends, and whether it is a value (a string, template
 * or regex) rather than a comment. `prev` is the last significant character before it.
 */
function literalAt(src: string, j: number, prev: string | undefined): { end: number; value: boolean } | undefined {
  const c = src[j];
  if (c === '"' || c === "'") return { end: quotedEnd(src, j, c), value: true };
  if (c === '`') return { end: templateEnd(src, j), value: true };
  if (c !== '/') return undefined;
  if (src[j + 1] === '/') {
    const nl = src.indexOf('\n', j);
    return { end: nl === -1 ? src.length : nl, value: false };
  }
  if (src[j + 1] === '*') {
    const close = src.indexOf('*/', j + 2);
    return { end: close === -1 ? src.length : close + 2, value: false };
  }
  if (prev === undefined || BEFORE_REGEX.includes(prev)) return { end: regexEnd(src, j), value: true };
  return undefined;
}

function quotedEnd(src: string, j: number, quote: string): number {
  for (let k = j + 1; k < src.length; k++) {
    if (src[k] === '\\') k++;
    else if (src[k] === quote || src[k] === '\n') return k + 1;
  }
  return src.length;
}

function templateEnd(src: string, j: number): number {
  for (let k = j + 1; k < src.length; k++) {
    if (src[k] === '\\') k++;
    else if (src[k] === '`') return k + 1;
    else if (src[k] === '$' && src[k + 1] === '{') k = substitutionEnd(src, k + 2);
  }
  return src.length;
}

/** The `}` closing a template's `${`, whose code may hold strings and templates of its own. */
function substitutionEnd(src: string, j: number): number {
  let depth = 0;
  return scanCode(src, j, '{', (k, c) => {
    if (c === '{') depth++;
    else if (c === '}' && depth-- === 0) return { stop: k };
    return undefined;
  });
}

function regexEnd(src: string, j: number): number {
  let inClass = false;
  for (let k = j + 1; k < src.length; k++) {
    const c = src[k];
    if (c === '\\') k++;
    else if (c === '\n') return k;
    else if (inClass) inClass = c !== ']';
    else if (c === '[') inClass = true;
    else if (c === '/') {
      let e = k + 1;
      while (e < src.length && IDENT.test(src[e]!)) e++;
      return e;
    }
  }
  return src.length;
}
