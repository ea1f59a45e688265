/**
 * check(t) at run time, over test/fixtures/runner/extra/check-records.eval.ts, run in-process as
 * `agent-evals run` runs it: a check that records nothing, and t.jsonSchema's schema rules.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { removeTempDirs } from '../support/cli.js';
import { caseOf } from '../support/results-helpers.js';
import { explain, runFixtureInProcess } from '../support/run-fixture-in-process.js';

afterAll(removeTempDirs);

describe('check(t) at run time', () => {
  it('a trial whose check records no assertion fails; t.jsonSchema is validated by the same schema rules', async () => {
    const r = await runFixtureInProcess('runner', { paths: ['extra/check-records.eval.ts'] });
    expect(r.code, explain(r)).toBe(1);
    const res = r.results();

    const none = caseOf(res, 'check-records/records-nothing');
    expect(none.verdict).toBe('failed');
    expect(none.trials[0]!.error).toMatch(/^check\(\) recorded no assertion/);
    expect(none.trials[0]!.reply).toBe('fail');
    expect(r.stdout).toContain('check() recorded no assertion');

    // A check that records nothing is fine when the case asserts on its own.
    expect(caseOf(res, 'check-records/static-assert').verdict).toBe('passed');

    const schema = caseOf(res, 'check-records/json-schema');
    expect(schema.verdict).toBe('failed');
    expect(schema.trials[0]!.assertions.map((a) => [a.kind, a.status, a.message])).toEqual([
      ['jsonSchema', 'failed', 'jsonSchema: reply does not match the schema (1 issue): $.qty: must be >= 1 (found 0)'],
    ]);

    const invalid = caseOf(res, 'check-records/json-schema-invalid').trials[0]!;
    expect(invalid.verdict).toBe('failed');
    expect(invalid.error).toMatch(/^check\(\): invalid assertion: schema\.type: invalid JSON Schema: must be one of /);
  });

  it('calledTool args with a __proto__ key (literal, computed, parsed, nested) fail the trial naming the assertion, never match a call without it', async () => {
    const r = await runFixtureInProcess('runner', { paths: ['extra/proto-args.eval.ts'] });
    expect(r.code, explain(r)).toBe(1);
    const res = r.results();
    expect(caseOf(res, 'proto-args/plain-match').verdict).toBe('passed');
    expect(caseOf(res, 'proto-args/plain-miss').verdict).toBe('failed');
    expect(caseOf(res, 'proto-args/literal').trials[0]!.error).toBe(
      'check(): invalid assertion: args: calledTool: args are matched as JSON, and the object is not a plain one (a literal __proto__ key sets its prototype)',
    );
    for (const id of ['computed', 'parsed']) {
      const trial = caseOf(res, `proto-args/${id}`).trials[0]!;
      expect(trial.verdict, id).toBe('failed');
      expect(trial.error, id).toBe('check(): invalid assertion: args: calledTool: "__proto__" cannot be an argument name (at __proto__): it would be dropped, and the filter would match any call');
    }
    expect(caseOf(res, 'proto-args/nested').trials[0]!.error).toBe(
      'check(): invalid assertion: args: notCalledTool: "__proto__" cannot be an argument name (at opts.__proto__): it would be dropped, and the filter would match any call',
    );
  });
});
