import { describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadYamlEvalFile } from '../../src/suite/load-yaml.js';
import { UserErrors } from '../../src/core/errors.js';

function file(text: string): string {
  const path = join(mkdtempSync(join(tmpdir(), 'agent-evals-yaml-')), 'x.eval.yaml');
  writeFileSync(path, text);
  return path;
}

describe('YAML eval files: lines', () => {
  it('finds each case at its id, in block and flow style, past ids quoted in earlier inputs', async () => {
    const path = file(
      [
        'suite: s', // 1
        'target: t', // 2
        'cases:', // 3
        '  - id: first', // 4
        '    input: "the next case is id: second"', // 5
        '    assert: [{ type: isJson }]', // 6
        '  - input: hello', // 7
        '    id: second', // 8
        '    assert: [{ type: isJson }]', // 9
        '  - { id: "third", input: x, assert: [{ type: isJson }] }', // 10
      ].join('\n'),
    );
    const loaded = await loadYamlEvalFile(path);
    expect(loaded.caseLines).toEqual([4, 8, 10]);
    expect(loaded.targetLine).toBe(2);
  });

  it('reads YAML 1.2 core: dates and yes/no stay strings', async () => {
    const loaded = await loadYamlEvalFile(file('suite: s\ntarget: t\ncases:\n  - id: a\n    input: 2024-01-01\n    reference: yes\n    assert: [{ type: isJson }]\n'));
    expect(loaded.data.cases![0]!.input).toBe('2024-01-01');
    expect(loaded.data.cases![0]!.reference).toBe('yes');
  });

  it('a bad field is reported at its own line, a syntax error at its line', async () => {
    const bad = await loadYamlEvalFile(file('suite: s\ntarget: t\ncases:\n  - id: a\n    input: x\n    assert:\n      - type: nope\n')).catch((e: unknown) => e);
    expect(bad).toBeInstanceOf(UserErrors);
    expect((bad as Error).message).toMatch(/x\.eval\.yaml:7: cases\[0\]\.assert\[0\]\.type: unknown assertion type "nope"/);
    const syntax = await loadYamlEvalFile(file('suite: s\ntarget: t\ncases:\n  - id: a\n    input: [unclosed\n')).catch((e: unknown) => e);
    expect((syntax as Error).message).toMatch(/x\.eval\.yaml:\d+: YAML syntax error/);
  });
});

describe('YAML eval files: judge choices', () => {
  const withChoices = (extra: string) =>
    file(`suite: s\ntarget: t\ncases:\n  - id: a\n    input: x\n    assert:\n      - type: judge\n        criteria: helpful\n        choices: { good: 1, bad: 0 }\n${extra}`);

  it('are accepted on a free rubric', async () => {
    const loaded = await loadYamlEvalFile(withChoices(''));
    expect(loaded.data.cases![0]!.assert?.[0]).toMatchObject({ type: 'judge', choices: { good: 1, bad: 0 } });
  });

  it('cannot go with a scale, a min or dimensions, and need two labels, each named at its line', async () => {
    const scaled = (await loadYamlEvalFile(withChoices('        scale: 10\n')).catch((e: unknown) => e)) as UserErrors;
    expect(scaled).toBeInstanceOf(UserErrors);
    expect(scaled.errors).toHaveLength(1);
    expect(scaled.errors[0]!.message).toMatch(/x\.eval\.yaml:10: cases\[0\]\.assert\[0\]\.scale: scale cannot be combined with choices \(the choice map gives the score; use threshold\)$/);
    const single = (await loadYamlEvalFile(file('suite: s\ntarget: t\ncases:\n  - id: a\n    input: x\n    assert:\n      - { type: judge, criteria: c, choices: { only: 1 } }\n')).catch(
      (e: unknown) => e,
    )) as UserErrors;
    expect(single.errors[0]!.message).toMatch(/x\.eval\.yaml:7: cases\[0\]\.assert\[0\]\.choices: give at least two choices, each with its score from 0 to 1$/);
  });
});
