/**
 * Translates a JavaScript pattern and flags into RE2 syntax with the same meaning, or answers
 * `undefined` when RE2 cannot say it (backreferences, lookaround, escapes whose JS meaning
 * differs). The caller then runs the JS engine under a time budget instead.
 */

/** What JS `\s` matches (RE2's `\s` is ASCII only). */
const JS_SPACE = '\\t\\n\\x{0B}\\f\\r \\x{A0}\\x{1680}\\x{2000}-\\x{200A}\\x{2028}\\x{2029}\\x{202F}\\x{205F}\\x{3000}\\x{FEFF}';
/** JS `.` without `s` stops at every line terminator, RE2's only at `\n`. */
const JS_DOT = '[^\\n\\r\\x{2028}\\x{2029}]';
const ANY = '[\\x{0}-\\x{10FFFF}]';
const NOTHING = '[^\\x{0}-\\x{10FFFF}]';
const HEX = /^[0-9A-Fa-f]+$/;

export interface Re2Translation {
  source: string;
  /**
   * JS multiline `^`/`$` also break at `\r`, U+2028 and U+2029, RE2's only at `\n`: on a text
   * holding one of those the translation may disagree, so the caller uses the JS engine there.
   */
  multilineAnchors: boolean;
}

export function translateToRe2(pattern: string, flags: string): Re2Translation | undefined {
  if ([...flags].some((f) => !'dgimsu'.includes(f))) return undefined; // `y` and `v` change the syntax or the start
  const unicode = flags.includes('u');
  const multiline = flags.includes('m');
  const dotAll = flags.includes('s');
  let out = '';
  let inClass = false;
  let anchors = false;
  let i = 0;
  while (i < pattern.length) {
    const ch = pattern[i]!;
    if (ch === '\\') {
      const escaped = escape(pattern, i, unicode, inClass);
      if (!escaped) return undefined;
      out += escaped.text;
      i = escaped.next;
      continue;
    }
    if (inClass) {
      if (ch === ']') inClass = false;
      out += ch === '[' ? '\\[' : ch;
      i++;
      continue;
    }
    if (ch === '[') {
      if (pattern[i + 1] === ']') {
        out += NOTHING;
        i += 2;
      } else if (pattern[i + 1] === '^' && pattern[i + 2] === ']') {
        out += ANY;
        i += 3;
      } else {
        inClass = true;
        out += '[';
        i++;
        // A leading `^` and then `]` or `[` are literal in JS; RE2 reads them the same once escaped.
        if (pattern[i] === '^') {
          out += '^';
          i++;
        }
      }
      continue;
    }
    if (ch === '(' && pattern[i + 1] === '?') {
      const next = pattern[i + 2];
      if (next === ':') out += '(?:';
      else if (next === '<' && pattern[i + 3] !== '=' && pattern[i + 3] !== '!') out += '(?P<';
      else return undefined; // lookaround or inline modifiers
      i += 3;
      continue;
    }
    if (ch === '.') out += dotAll ? ANY : JS_DOT;
    else if (ch === ']') out += '\\]';
    else {
      if ((ch === '^' || ch === '$') && multiline) anchors = true;
      out += ch;
    }
    i++;
  }
  const prefix = (flags.includes('i') ? 'i' : '') + (multiline ? 'm' : '');
  return { source: prefix ? `(?${prefix})${out}` : out, multilineAnchors: anchors };
}

/** One escape at `pattern[i] === '\\'`: its RE2 text and where the next token starts. */
function escape(pattern: string, i: number, unicode: boolean, inClass: boolean): { text: string; next: number } | undefined {
  const c = pattern[i + 1];
  if (c === undefined) return undefined;
  if ('dDwWnrtfvB'.includes(c)) return { text: `\\${c}`, next: i + 2 };
  if (c === 'b') return inClass ? { text: '\\x{8}', next: i + 2 } : { text: '\\b', next: i + 2 };
  if (c === 's') return { text: inClass ? JS_SPACE : `[${JS_SPACE}]`, next: i + 2 };
  if (c === 'S') return inClass ? undefined : { text: `[^${JS_SPACE}]`, next: i + 2 };
  if (c === '0') return /[0-9]/.test(pattern[i + 2] ?? '') ? undefined : { text: '\\x{0}', next: i + 2 };
  if (c === 'c') {
    const letter = pattern[i + 2] ?? '';
    return /^[A-Za-z]$/.test(letter) ? { text: `\\x{${(letter.charCodeAt(0) % 32).toString(16)}}`, next: i + 3 } : undefined;
  }
  if (c === 'x') {
    const hex = pattern.slice(i + 2, i + 4);
    return hex.length === 2 && HEX.test(hex) ? { text: `\\x{${hex}}`, next: i + 4 } : undefined;
  }
  if (c === 'u') return unicodeEscape(pattern, i, unicode);
  if (c === 'p' || c === 'P') {
    if (!unicode) return undefined; // without `u`, `\p` is the letter p
    const m = /^\{([A-Za-z_]+)\}/.exec(pattern.slice(i + 2));
    // RE2 knows general categories and scripts by short name; anything else is left to JS.
    return m ? { text: `\\${c}{${m[1]}}`, next: i + 2 + m[0].length } : undefined;
  }
  // Digits are backreferences (or octal), other letters differ between the engines.
  if (/[0-9A-Za-z]/.test(c)) return undefined;
  const cp = pattern.codePointAt(i + 1)!;
  const char = String.fromCodePoint(cp);
  return { text: cp < 128 ? `\\${char}` : char, next: i + 1 + char.length };
}

function unicodeEscape(pattern: string, i: number, unicode: boolean): { text: string; next: number } | undefined {
  if (pattern[i + 2] === '{') {
    const end = pattern.indexOf('}', i + 3);
    const hex = end < 0 ? '' : pattern.slice(i + 3, end);
    return unicode && HEX.test(hex) ? { text: `\\x{${hex}}`, next: end + 1 } : undefined;
  }
  const hex = pattern.slice(i + 2, i + 6);
  if (hex.length !== 4 || !HEX.test(hex)) return undefined;
  const unit = parseInt(hex, 16);
  if (unit < 0xd800 || unit > 0xdfff) return { text: `\\x{${hex}}`, next: i + 6 };
  // A surrogate pair written as two escapes is one code point; a lone surrogate has no RE2 form.
  const low = /^\\u(d[c-f][0-9a-f]{2})/i.exec(pattern.slice(i + 6));
  if (unit > 0xdbff || !low) return undefined;
  const cp = 0x10000 + ((unit - 0xd800) << 10) + (parseInt(low[1]!, 16) - 0xdc00);
  return { text: `\\x{${cp.toString(16)}}`, next: i + 12 };
}
