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

function errorOf(fn: () => unknown): UserError {
  try {
    fn();
  } catch (err) {
    if (err instanceof UserError) return err;
    throw err;
  }
  throw new Error('expected a UserError');
}

describe('loadLabels', () => {
  it('JSONL: rows with their lines, blank lines ignored, unlabelled rows listed apart', () => {
    const set = loadLabels(file('l.jsonl', '{"output":"a","humanScore":7}\n\n{"output":"b"}\n{"id":3,"output":"c","humanVerdict":"fail","input":"q"}\n'), 'l.jsonl');
    expect(set.rows).toEqual([
      { id: 'line-1', line: 1, output: 'a', humanScore: 7 },
      { id: '3', line: 4, output: 'c', humanVerdict: 'fail', input: 'q' },
    ]);
    expect(set.unlabelled).toEqual([3]);
  });

  it('CSV: header row, a quoted cell across lines, empty cells absent, verdicts case-insensitive', () => {
    const set = loadLabels(file('l.csv', 'id,output,humanScore,humanVerdict\na,"two\nlines",8,\nb,plain,,FAIL\n'), 'l.csv');
    expect(set.rows).toEqual([
      { id: 'a', line: 2, output: 'two\nlines', humanScore: 8 },
      { id: 'b', line: 4, output: 'plain', humanVerdict: 'fail' },
    ]);
  });

  it('YAML: a list of rows, each at its line', () => {
    const set = loadLabels(file('l.yaml', '# labels\n- output: a\n  humanVerdict: pass\n- output: |\n    long\n  humanScore: 0.5\n'), 'l.yaml');
    expect(set.rows.map((r) => [r.line, r.output])).toEqual([
      [2, 'a'],
      [4, 'long\n'],
    ]);
  });

  it('a duplicate id, given or implied (line-<n>), names the file, the line and the id', () => {
    expect(errorOf(() => loadLabels(file('l.jsonl', '{"id":"a","output":"x","humanScore":1}\n{"id":"b","output":"y"}\n{"id":"a","output":"z","humanScore":2}\n'), 'l.jsonl')).message).toBe(
      'l.jsonl:3: id: duplicate id "a" (first at line 1): each row needs its own id',
    );
    expect(errorOf(() => loadLabels(file('l.csv', 'id,output,humanScore\na,x,1\na,y,2\n'), 'l.csv')).message).toBe('l.csv:3: id: duplicate id "a" (first at line 2): each row needs its own id');
    expect(errorOf(() => loadLabels(file('l.jsonl', '{"output":"x","humanScore":1}\n{"id":"line-1","output":"y","humanScore":2}\n'), 'l.jsonl')).message).toContain('duplicate id "line-1"');
  });

  it('bad input names file, line and field', () => {
    expect(errorOf(() => loadLabels(file('l.jsonl', '{"output":"a","humanVerdict":"pass"}\n{"output":1}\n'), 'l.jsonl')).message).toMatch(/^l\.jsonl:2: output: /);
    expect(errorOf(() => loadLabels(file('l.jsonl', '{"output":"a"}\n{oops\n'), 'l.jsonl')).message).toMatch(/^l\.jsonl:2: not JSON/);
    expect(errorOf(() => loadLabels(file('l.jsonl', '{"output":"a","humanVerdict":"ok"}\n'), 'l.jsonl')).message).toMatch(/^l\.jsonl:1: humanVerdict: /);
    expect(errorOf(() => loadLabels(file('l.jsonl', '{"output":"a","score":3}\n'), 'l.jsonl')).message).toMatch(/^l\.jsonl:1: score: unknown field/);
    expect(errorOf(() => loadLabels(file('l.csv', 'output,humanScore\na,high\n'), 'l.csv')).message).toBe('l.csv:2: humanScore: not a number: "high"');
    expect(errorOf(() => loadLabels(file('l.yaml', '- output: a\n  humanVerdict: pass\n- output: b\n  humanScore: x\n'), 'l.yaml')).message).toMatch(/^l\.yaml:3: humanScore: /);
    expect(errorOf(() => loadLabels(file('l.txt', ''), 'l.txt')).message).toMatch(/^l\.txt: a labels file is \.jsonl, \.csv or \.yaml/);
    expect(errorOf(() => loadLabels('/nonexistent/l.jsonl', 'l.jsonl')).message).toBe('l.jsonl: cannot read the labels file: ENOENT');
  });
});
