/**
 * Assertions that could not hold their promise are refused before any target runs (exit 2, file,
 * line and field): a JSON Schema that Ajv rejects, a case with no assertion at all. A `check(t)`
 * that records none is only known at run time, so that trial fails instead of passing.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { STACK_FRAME, removeTempDirs } from '../support/cli.js';
import { explain, runFixture, type FixtureRun } from './fixture-run.js';

afterAll(removeTempDirs);

/** Exit 2, no target called, no stack trace; returns stderr. */
function expectLoadError(r: FixtureRun): string {
  expect(r.code, explain(r)).toBe(2);
  expect(r.calls(), 'a target ran despite the bad input').toEqual([]);
  expect(r.stderr).not.toMatch(STACK_FRAME);
  expect(r.stderr).not.toContain('internal error');
  return r.stderr;
}

describe.concurrent('load errors for assertions that cannot hold', () => {
  it('a YAML jsonSchema that Ajv rejects names the file, the line inside the schema and the field', async () => {
    const r = await runFixture('runner', ['run', 'evals/flaky.eval.yaml', 'bad/bad-json-schema.eval.yaml']);
    const err = expectLoadError(r);
    expect(err).toMatch(
      /^(agent-evals: )?bad\/bad-json-schema\.eval\.yaml:18: cases\[1\]\.assert\[0\]\.schema\.properties\.a\.type: invalid JSON Schema: must be one of \["array",.*"string"\] \(draft 2020-12\)$/m,
    );
    expect(err).toMatch(/^(agent-evals: )?bad\/bad-json-schema\.eval\.yaml:23: cases\[2\]\.assert\[0\]\.schema\.minLength: invalid JSON Schema: must be integer/m);
    // The valid schema in the same file is not reported.
    expect(err).not.toContain('cases[0]');
  });

  it('a TypeScript jsonSchema with an unknown keyword names the file and the case line', async () => {
    const r = await runFixture('runner', ['run', 'evals/flaky.eval.yaml', 'bad/bad-json-schema.eval.ts']);
    const err = expectLoadError(r);
    expect(err).toMatch(/bad\/bad-json-schema\.eval\.ts:10: cases\[1\]\.assert\[0\]\.schema: invalid JSON Schema: unknown keyword "maxLenght"/);
  });
});
