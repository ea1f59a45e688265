/**
 * Assertions that could not hold their promise are refused before any target runs (exit 2, file,
 * line and field): a JSON Schema that Ajv rejects, a case with no assertion at all. A `check(t)`
 * that records none is only known at run time (test/runner/check-at-run-time.test.ts).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { removeTempDirs } from '../support/cli.js';
import { expectUsageError, runFixture } from '../support/fixture-run.js';
import { runCliInProcess } from '../support/cli-in-process.js';

afterAll(removeTempDirs);

describe.concurrent('load errors for assertions that cannot hold', () => {
  it('a YAML jsonSchema that Ajv rejects names the file, the line inside the schema and the field', async () => {
    const r = await runFixture('runner', ['run', 'evals/flaky.eval.yaml', 'bad/bad-json-schema.eval.yaml'], runCliInProcess);
    const err = expectUsageError(r);
    expect(err).toMatch(
      /^(agent-evals: )?bad\/bad-json-schema\.eval\.yaml:18: cases\[1\]\.assert\[0\]\.schema\.properties\.a\.type: invalid JSON Schema: must be one of \["array",.*"string"\] \(draft 2020-12\)$/m,
    );
    expect(err).toMatch(/^(agent-evals: )?bad\/bad-json-schema\.eval\.yaml:23: cases\[2\]\.assert\[0\]\.schema\.minLength: invalid JSON Schema: must be integer/m);
    // The valid schema in the same file is not reported.
    expect(err).not.toContain('cases[0]');
  });

  it('a TypeScript jsonSchema with an unknown keyword names the file and the case line', async () => {
    const r = await runFixture('runner', ['run', 'evals/flaky.eval.yaml', 'bad/bad-json-schema.eval.ts'], runCliInProcess);
    const err = expectUsageError(r);
    expect(err).toMatch(/bad\/bad-json-schema\.eval\.ts:10: cases\[1\]\.assert\[0\]\.schema: invalid JSON Schema: unknown keyword "maxLenght"/);
  });

  it('a YAML case without assertions (none on the case, none on its turns) names the file and line', async () => {
    const r = await runFixture('runner', ['run', 'evals/flaky.eval.yaml', 'bad/no-assertions.eval.yaml'], runCliInProcess);
    const err = expectUsageError(r);
    const reported = [...err.matchAll(/bad\/no-assertions\.eval\.yaml:(\d+): (cases\[\d\]\.assert): a case needs at least one assertion \(([^)]*)\); without one it can only pass/g)].map((m) => [
      Number(m[1]),
      m[2],
      m[3],
    ]);
    expect(reported).toEqual([
      [8, 'cases[1].assert', '"assert"'],
      [12, 'cases[2].assert', '"assert"'],
      [13, 'cases[3].assert', '"assert" on the case or on a turn'],
    ]);
  });

  it('a TypeScript case with neither assert nor check names the file and line', async () => {
    const r = await runFixture('runner', ['run', 'evals/flaky.eval.yaml', 'bad/no-assertions.eval.ts'], runCliInProcess);
    const err = expectUsageError(r);
    expect(err).toMatch(/bad\/no-assertions\.eval\.ts:11: cases\[2\]\.assert: a case needs at least one assertion \("assert" or "check"\)/);
    expect(err).not.toMatch(/cases\[[01]\]/);
  });

  it('list refuses the same file', async () => {
    const r = await runFixture('runner', ['list', 'bad/no-assertions.eval.yaml'], runCliInProcess);
    expect(expectUsageError(r)).toContain('bad/no-assertions.eval.yaml:8');
  });
});
