/**
 * No user pattern can hang the run: nested quantifiers run in RE2, and a pattern RE2 cannot
 * express (backreference, lookaround) runs under a time budget that fails the assertion. Ctrl-C
 * goes to the spawned binary; the rest runs the CLI's `main` in-process.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { readCountFile, removeTempDirs } from '../support/cli.js';
import { explain, runFixture, spawnFixture } from '../support/fixture-run.js';
import { runCliInProcess } from '../support/cli-in-process.js';
import { whenFileExists } from '../support/process-events.js';

afterAll(removeTempDirs);

const BUDGET = 'took longer than 1000 ms; patterns with backreferences or lookaround run with a time budget';

describe('user regexes', () => {
  it('`^hello (a+)+$` on "hello" + 40 "a" + "!" fails cleanly, in `regex` and in a JSON Schema `pattern`', async () => {
    const r = await runFixture('regex-budget', ['run', 'evals/nested.eval.yaml', '--json', '$JSON'], runCliInProcess);
    expect(r.code, explain(r)).toBe(1);
    expect(r.stdout).toContain('regex /^hello (a+)+$/: no match in reply (47 chars)');
    expect(r.stdout).toContain('$.word: must match pattern "^hello (a+)+$"');
    const res = r.results();
    expect(res.summary.trials.run).toBe(2);
    expect(res.summary.trials.passed).toBe(0);
  });

  it('a catastrophic backreference or lookahead fails with the time-budget message; a fine one passes', async () => {
    const r = await runFixture('regex-budget', ['run', 'evals/backref.eval.yaml', '--json', '$JSON'], runCliInProcess);
    expect(r.code, explain(r)).toBe(1);
    expect(r.stdout).toContain(`regex /^(a|a)*\\1$/ ${BUDGET}`);
    expect(r.stdout).toContain(`regex /^(?=(a+)+$)/ ${BUDGET}`);
    const byId = new Map(r.results().cases.map((c) => [c.id, c]));
    expect(byId.get('backref')?.passed).toBe(0);
    expect(byId.get('lookahead')?.passed).toBe(0);
    expect(byId.get('fine')?.passed).toBe(1);
  });

  it('Ctrl-C during a slow fallback pattern exits 130 before the planned trials have run', async () => {
    // 20 trials, each spending its whole budget in the pattern.
    const cli = spawnFixture('regex-budget', ['run', 'evals/slow.eval.yaml', '--json', '$JSON'], 60_000);
    const countFile = cli.setup.env.COUNT_FILE!;
    // The first reply is in (the target created its count file): its pattern is now running.
    await whenFileExists(countFile, cli.done);
    expect(cli.child.kill('SIGINT')).toBe(true);
    const r = await cli.done;
    expect(r.code, explain(r)).toBe(130);
    expect(r.stderr).toContain('Interrupted');
    expect(readCountFile(countFile).length).toBeLessThan(20);
  });
});
