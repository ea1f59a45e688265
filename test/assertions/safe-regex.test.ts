import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { evaluateDeterministic } from '../../src/assertions/evaluate.js';
import { compileJsonSchema } from '../../src/assertions/json-schema-validator.js';
import { safeRegex } from '../../src/assertions/safe-regex.js';
import { makeCtx } from './helpers.js';

/** What the JS engine finds, in safeRegex's shape. */
function jsMatch(pattern: string, flags: string, text: string) {
  const m = new RegExp(pattern, flags).exec(text);
  return { ok: true, match: m ? { index: m.index, text: m[0] } : null };
}

// [pattern, flags, texts]: each runs in RE2 and must find what the JS engine finds.
const ORDINARY: [string, string, string[]][] = [
  ['refund', '', ['Your refund is on its way', 'no match here']],
  ['REFUND', 'i', ['Your Refund is on its way', 'nothing']],
  ['^order #(\\d+)$', '', ['order #123', 'order #12a', 'xorder #1']],
  ['^total: \\d+$', 'm', ['items\ntotal: 42\nthanks', 'total: x\n']],
  ['^a.b$', '', ['a\nb', 'axb']],
  ['^a.b$', 's', ['a\nb', 'a\rb']],
  ['a.c', '', ['a\rc', 'a\u2028c', 'abc']],
  ['\\bcat\\b', 'g', ['concat cat', 'cats']],
  ['\\s+', '', ['a\u00a0\u2003b', 'a\vb', 'ab']],
  ['[\\s,]+', '', ['a ,\u3000b']],
  ['\\S+@\\S+', '', ['mail me at a@b.c now']],
  ['\\p{L}+', 'u', ['12 héllo wörld', 'Ωmega']],
  ['^\\p{Lu}\\p{Ll}+$', 'u', ['Émile', 'émile']],
  ['\\P{L}+', 'u', ['abc123def']],
  ['😀.', 'u', ['a😀😀b']],
  ['\\u{1F600}', 'u', ['x😀']],
  ['\\uD83D\\uDE00', '', ['x😀']],
  ['\\x41\\u0042\\cJ', '', ['zAB\n']],
  ['(?<year>\\d{4})-(?:\\d{2})', '', ['on 2024-05-01']],
  ['colou?r|gr[ae]y', 'i', ['GREY skies', 'Colour']],
  ['a{2,3}?', '', ['aaaa']],
  ['[^]', '', ['\n']],
  ['x[]', '', ['x']],
  ['[\\]\\-a]+', '', ['-]a-b']],
  ['[[:alpha:]]', '', ['[:a]', 'b]']],
  ['\\d+(\\.\\d+)?', '', ['pi is 3.14', 'n/a']],
  ['end$', '', ['the end\n', 'the end']],
  ['\\/path\\/', '', ['a /path/ b']],
  // Leftmost-first alternation, as in JS (not POSIX leftmost-longest).
  ['a|ab', '', ['ab']],
  ['(a|ab)(c|bcd)', '', ['abcd']],
  ['[\\b]\\0', '', ['a\b\0']],
  ['a{,2}', '', ['a{,2}', 'aa']],
  ['[a-z]+', 'i', ['ÀBc']],
  ['\\p{Lu}', 'iu', ['a']],
];

describe('safeRegex: RE2 and the JS engine agree on ordinary patterns', () => {
  for (const [pattern, flags, texts] of ORDINARY) {
    it(`/${pattern}/${flags}`, () => {
      const re = safeRegex(pattern, flags);
      for (const text of texts) {
        expect(re.engineFor(text)).toBe('re2');
        expect(re.exec(text), JSON.stringify(text)).toEqual(jsMatch(pattern, flags, text));
      }
    });
  }

  it('multiline anchors on a text with \\r (which RE2 does not break lines at) use the JS engine and agree', () => {
    const re = safeRegex('^total$', 'm');
    expect(re.engineFor('a\r\ntotal\r\nb')).toBe('budgeted');
    expect(re.engineFor('a\ntotal\nb')).toBe('re2');
    for (const text of ['a\r\ntotal\r\nb', 'a\ntotal\nb']) expect(re.exec(text)).toEqual(jsMatch('^total$', 'm', text));
  });
});

describe('safeRegex: what RE2 cannot say runs in the JS engine, with the same answers', () => {
  const CASES: [string, string, string][] = [
    ['^(abc)\\1$', '', 'abcabc'],
    ['(?=.*\\d)\\w+', '', 'abc1'],
    ['(?<!x)y', '', 'xy zy'],
    ['\\k<q>|(?<q>a)', '', 'a'],
    ['\\a', '', 'xa'], // an identity escape: the letter a in JS, the bell in RE2
    ['\\p{L}', '', 'p{L}'], // without `u`, \p is the letter p
    ['a', 'y', 'ba'],
    ['\\p{Letter}', 'u', 'é'], // a long property name RE2 does not know
    ['x{1001}', '', 'x'], // over RE2's repeat limit
  ];
  for (const [pattern, flags, text] of CASES) {
    it(`/${pattern}/${flags}`, () => {
      const re = safeRegex(pattern, flags);
      expect(re.engineFor(text)).toBe('budgeted');
      expect(re.exec(text)).toEqual(jsMatch(pattern, flags, text));
    });
  }

  it('a catastrophic pattern fails with the time-budget message instead of hanging', () => {
    expect(safeRegex('^(a|a)*\\1$').exec(`${'a'.repeat(40)}!`)).toEqual({
      ok: false,
      message: 'regex /^(a|a)*\\1$/ took longer than 1000 ms; patterns with backreferences or lookaround run with a time budget',
    });
    // The stopped worker is replaced: the next budgeted pattern still answers.
    expect(safeRegex('^(ab)\\1$').exec('abab')).toEqual({ ok: true, match: { index: 0, text: 'abab' } });
  });

  it('nested quantifiers run in RE2, which answers at once', () => {
    const re = safeRegex('^hello (a+)+$');
    expect(re.engineFor('hello')).toBe('re2');
    expect(re.exec(`hello ${'a'.repeat(40)}!`)).toEqual({ ok: true, match: null });
    expect(re.exec(`hello ${'a'.repeat(40)}`)).toEqual({ ok: true, match: { index: 0, text: `hello ${'a'.repeat(40)}` } });
  });

  it('rejects what JS rejects', () => {
    expect(() => safeRegex('(')).toThrow(SyntaxError);
    expect(() => safeRegex('a', 'q')).toThrow(SyntaxError);
  });
});

describe('jsonSchema `pattern` runs through safeRegex', () => {
  it('a catastrophic backreference in a schema fails the assertion with the time-budget message', async () => {
    const schema = { type: 'object', properties: { word: { type: 'string', pattern: '^(a|a)*\\1$' } } };
    const out = await evaluateDeterministic({ type: 'jsonSchema', schema }, makeCtx({ reply: JSON.stringify({ word: `${'a'.repeat(40)}!` }) }));
    expect(out).toEqual({
      score: 0,
      message: 'jsonSchema: regex /^(a|a)*\\1$/u took longer than 1000 ms; patterns with backreferences or lookaround run with a time budget',
    });
  });

  it('two schemas with different patterns keep their own (Ajv shares patterns by their text)', () => {
    const a = compileJsonSchema({ type: 'string', pattern: '^a+$' });
    const b = compileJsonSchema({ type: 'string', pattern: '^b+$' });
    if (!a.ok || !b.ok) throw new Error('schemas should compile');
    expect(a.validate('aaa')).toEqual([]);
    expect(b.validate('aaa')).not.toEqual([]);
    expect(b.validate('bb')).toEqual([]);
  });
});

describe('the budgeted engine under `node --input-type=module`', () => {
  it('its worker starts in a process whose code came from -e as a module (no inherited --input-type)', () => {
    // Built code: the worker is the subject, and it runs the same in dist as in src.
    const dist = pathToFileURL(resolve('dist/assertions/safe-regex.js')).href;
    const code = `import { safeRegex } from ${JSON.stringify(dist)}; process.stdout.write(JSON.stringify(safeRegex('(a)\\\\1').exec('xaa')));`;
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', code], { encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(JSON.parse(r.stdout)).toEqual({ ok: true, match: { index: 1, text: 'aa' } });
  });
});
