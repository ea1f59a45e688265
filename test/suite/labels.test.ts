/**
 * Reading labelled sets for `calibrate`: JSONL, CSV (a quoted cell over two lines) and YAML give the
 * same rows with the line each starts on; bad input names file, line and field.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { UserError } from '../../src/core/errors.js';
import { loadLabels } from '../../src/suite/labels.js';
import { removeTempDirs, tempDir } from '../support/cli.js';

afterAll(removeTempDirs);

function file(name: string, text: string): string {
  const path = join(tempDir('agent-evals-labels-'), name);
  writeFileSync(path, text);
  return path;
}

async function errorOf(fn: () => Promise<unknown>): Promise<UserError> {
  try {
    await fn();
  } catch (err) {
    if (err instanceof UserError) return err;
    throw err;
  }
  throw new Error('expected a UserError');
}

describe('loadLabels', () => {
  it('JSONL: rows with their lines, blank lines ignored, unlabelled rows listed apart', async () => {
    const set = await loadLabels(file('l.jsonl', '{"output":"a","humanScore":7}\n\n{"output":"b"}\n{"id":3,"output":"c","humanVerdict":"fail","input":"q"}\n'), 'l.jsonl');
    expect(set.rows).toEqual([
      { id: 'line-1', line: 1, output: 'a', humanScore: 7 },
      { id: '3', line: 4, output: 'c', humanVerdict: 'fail', input: 'q' },
    ]);
    expect(set.unlabelled).toEqual([3]);
  });

  it('CSV: header row, a quoted cell across lines, empty cells absent, verdicts case-insensitive', async () => {
    const set = await loadLabels(file('l.csv', 'id,output,humanScore,humanVerdict\na,"two\nlines",8,\nb,plain,,FAIL\n'), 'l.csv');
    expect(set.rows).toEqual([
      { id: 'a', line: 2, output: 'two\nlines', humanScore: 8 },
      { id: 'b', line: 4, output: 'plain', humanVerdict: 'fail' },
    ]);
  });

  it('YAML: a list of rows, each at its line', async () => {
    const set = await loadLabels(file('l.yaml', '# labels\n- output: a\n  humanVerdict: pass\n- output: |\n    long\n  humanScore: 0.5\n'), 'l.yaml');
    expect(set.rows.map((r) => [r.line, r.output])).toEqual([
      [2, 'a'],
      [4, 'long\n'],
    ]);
  });

  it('a duplicate id, given or implied (line-<n>), names the file, the line and the id', async () => {
    expect((await errorOf(() => loadLabels(file('l.jsonl', '{"id":"a","output":"x","humanScore":1}\n{"id":"b","output":"y"}\n{"id":"a","output":"z","humanScore":2}\n'), 'l.jsonl'))).message).toBe(
      'l.jsonl:3: id: duplicate id "a" (first at line 1): each row needs its own id',
    );
    expect((await errorOf(() => loadLabels(file('l.csv', 'id,output,humanScore\na,x,1\na,y,2\n'), 'l.csv'))).message).toBe(
      'l.csv:3: id: duplicate id "a" (first at line 2): each row needs its own id',
    );
    expect((await errorOf(() => loadLabels(file('l.jsonl', '{"output":"x","humanScore":1}\n{"id":"line-1","output":"y","humanScore":2}\n'), 'l.jsonl'))).message).toContain('duplicate id "line-1"');
  });

  it('bad input names file, line and field', async () => {
    expect((await errorOf(() => loadLabels(file('l.jsonl', '{"output":"a","humanVerdict":"pass"}\n{"output":1}\n'), 'l.jsonl'))).message).toMatch(/^l\.jsonl:2: output: /);
    expect((await errorOf(() => loadLabels(file('l.jsonl', '{"output":"a"}\n{oops\n'), 'l.jsonl'))).message).toMatch(/^l\.jsonl:2: line 2 is not JSON/);
    expect((await errorOf(() => loadLabels(file('l.jsonl', '{"output":"a","humanVerdict":"ok"}\n'), 'l.jsonl'))).message).toMatch(/^l\.jsonl:1: humanVerdict: /);
    expect((await errorOf(() => loadLabels(file('l.jsonl', '{"output":"a","score":3}\n'), 'l.jsonl'))).message).toMatch(/^l\.jsonl:1: score: unknown field/);
    expect((await errorOf(() => loadLabels(file('l.csv', 'output,humanScore\na,high\n'), 'l.csv'))).message).toBe('l.csv:2: humanScore: not a number: "high"');
    expect((await errorOf(() => loadLabels(file('l.yaml', '- output: a\n  humanVerdict: pass\n- output: b\n  humanScore: x\n'), 'l.yaml'))).message).toMatch(/^l\.yaml:3: humanScore: /);
    expect((await errorOf(() => loadLabels(file('l.txt', ''), 'l.txt'))).message).toMatch(/^l\.txt: a labels file is \.jsonl, \.csv or \.yaml/);
    expect((await errorOf(() => loadLabels('/nonexistent/l.jsonl', 'l.jsonl'))).message).toBe('l.jsonl: cannot read the labels file: ENOENT');
  });

  it('reads by the dataset rules: a UTF-8 byte-order mark, YAML aliases (under the same bound), CSV header names, no __proto__ key', async () => {
    const bom = await loadLabels(file('bom.jsonl', '\uFEFF{"output":"a","humanScore":1}\n'), 'bom.jsonl');
    expect(bom.rows).toEqual([{ id: 'line-1', line: 1, output: 'a', humanScore: 1 }]);

    const aliased = await loadLabels(file('alias.yaml', '- output: &reply Order 42 ships Monday\n  humanVerdict: pass\n- output: *reply\n  id: again\n  humanScore: 0.5\n'), 'alias.yaml');
    expect(aliased.rows.map((r) => [r.id, r.line, r.output])).toEqual([
      ['line-1', 1, 'Order 42 ships Monday'],
      ['again', 3, 'Order 42 ships Monday'],
    ]);
    const laughs = ['- output: x', '  humanScore: 1', '  input: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]'];
    for (let i = 1; i <= 8; i++) laughs.push(`  i${i}: &a${i} [${Array.from({ length: 10 }, () => `*a${i - 1}`).join(', ')}]`);
    expect((await errorOf(() => loadLabels(file('bomb.yaml', laughs.join('\n') + '\n'), 'bomb.yaml'))).message).toMatch(
      /^bomb\.yaml:\d+: YAML aliases expand too far .*at most 10000 alias expansions/,
    );

    expect((await errorOf(() => loadLabels(file('dup.csv', 'output,humanScore,output\na,1,b\n'), 'dup.csv'))).message).toBe(
      'dup.csv:1: output: column 3 of the CSV header repeats column 1 ("output")',
    );
    expect((await errorOf(() => loadLabels(file('empty.csv', 'output,,humanScore\na,x,1\n'), 'empty.csv'))).message).toBe('empty.csv:1: column 2 of the CSV header has no name');

    expect((await errorOf(() => loadLabels(file('p.jsonl', '{"output":"a","humanScore":1,"__proto__":{"humanVerdict":"pass"}}\n'), 'p.jsonl'))).message).toMatch(
      /^p\.jsonl:1: __proto__: unknown field/,
    );
    expect((await errorOf(() => loadLabels(file('p.csv', 'output,__proto__\na,x\n'), 'p.csv'))).message).toMatch(/^p\.csv:2: __proto__: unknown field/);
    expect((await errorOf(() => loadLabels(file('p.yaml', '- output: a\n  __proto__: { humanScore: 1 }\n'), 'p.yaml'))).message).toMatch(/^p\.yaml:2: "__proto__" cannot be a key/);
  });
});
