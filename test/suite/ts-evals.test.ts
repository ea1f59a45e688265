/**
 * `*.eval.ts` files importing `defineEval` from 'agent-evals'. The fixture lives inside the repo
 * (test/fixtures/ts-evals), where 'agent-evals' resolves by package self-reference through the
 * "exports" of the repo's package.json; there is no node_modules/agent-evals. Run in-process, as
 * `agent-evals run` runs it in that folder.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { removeTempDirs } from '../support/cli.js';
import { caseOf } from '../support/results-helpers.js';
import { explain, runFixtureInProcess } from '../support/run-fixture-in-process.js';

afterAll(removeTempDirs);

describe.concurrent('TypeScript eval files', () => {
  it('runs check(t) cases: a failing check reports its assertion and message', async () => {
    const r = await runFixtureInProcess('ts-evals');
    expect(r.code, explain(r)).toBe(1);
    const res = r.results();

    const fails = caseOf(res, 'ts/checks/fails');
    expect(fails).toMatchObject({ verdict: 'failed', file: 'evals/checks.eval.ts', line: 18, tags: ['ts'] });
    const [apples, bananas] = fails.trials[0]!.assertions;
    expect(apples).toMatchObject({ kind: 'contains', status: 'passed' });
    expect(bananas).toMatchObject({ name: 'mentions bananas', kind: 'contains', severity: 'gate', status: 'failed', score: 0 });
    expect(bananas!.message).toContain('bananas');
    // The terminal names the failing assertion under the case.
    expect(r.stdout).toMatch(/✗ mentions bananas: contains "bananas"/);

    const passes = caseOf(res, 'ts/checks/passes');
    expect(passes.verdict).toBe('passed');
    expect(passes.trials[0]!.assertions.map((a) => [a.kind, a.status])).toEqual([
      ['startsWith', 'passed'],
      ['contains', 'passed'],
      ['custom', 'passed'],
    ]);
    expect(passes.trials[0]!.reply).toBe('You said: hello there');

    // .soft() turns a miss into a scored case.
    const soft = caseOf(res, 'ts/checks/soft-miss');
    expect(soft.verdict).toBe('scored');
    expect(soft.trials[0]!.assertions[1]).toMatchObject({ severity: 'soft', status: 'failed' });

    // A check(t) that throws fails its trial with the error, not the run.
    const broken = caseOf(res, 'ts/checks/check-throws');
    expect(broken.verdict).toBe('failed');
    expect(broken.trials[0]!.error).toContain('the check itself broke');
    expect(broken.trials[0]!.reply).toBe('You said: anything');

    // An inline function target with data assertions.
    expect(caseOf(res, 'ts/inline/upper')).toMatchObject({ verdict: 'passed', line: 9 });
    expect(caseOf(res, 'ts/inline/upper').trials[0]!.reply).toBe('SHOUT');
  });

  it('--filter selects TS cases; the passing one exits 0', async () => {
    const r = await runFixtureInProcess('ts-evals', { selection: { filter: ['ts/checks/passes'] } });
    expect(r.code, explain(r)).toBe(0);
    expect(r.stdout).toContain('1/1 (needed 1)  ts/checks/passes');
  });
});
