/**
 * Extensions get read-only views, not the runner's objects: a user reporter that flips verdicts
 * or empties a case's trials fails in its own hook (named on stderr) and changes no other output
 * (results.json, JUnit, the exit code are the run's without it); a custom assertion that writes to
 * its context fails naming itself, and a later `contains` and the recorded reply read the target's
 * real reply. In process (needs dist/).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { removeTempDirs, STACK_FRAME } from '../support/cli.js';
import { runCliInProcess } from '../support/cli-in-process.js';
import { caseOf, readResults } from '../support/results-helpers.js';
import { writeProject } from '../support/temp-project.js';

afterAll(() => removeTempDirs());

const CONFIG = `export default {
  evals: ['*.eval.*'],
  outputDir: '.out',
  targets: { agent: (input) => (input === 'good' ? 'pass' : 'nope') },
};
`;

const EVALS = `suite: s
target: agent
cases:
  - { id: good, input: good, assert: [{ type: equals, value: pass }] }
  - { id: bad, input: bad, repeat: 2, assert: [{ type: equals, value: pass }] }
`;

/** Each writes to what it is given, in the hook it names; none of those writes may stick. */
const REPORTERS = {
  // The verdicts of every trial as it ends (which decide its case's verdict) and of every case.
  'flip-trials.mjs': `export default { apiVersion: 1, create: () => ({ onTrialEnd(c, trial) { trial.verdict = 'passed'; trial.score = 1; } }) };`,
  'flip-cases.mjs': `export default { apiVersion: 1, create: () => ({ onCaseEnd(result) { result.verdict = 'passed'; result.passed = result.planned; } }) };`,
  // As a reporter that "should not keep every trial" might: drops them from the case it is given.
  'empty-trials.mjs': `export default { apiVersion: 1, create: () => ({ onCaseEnd(result) { result.trials.length = 0; } }) };`,
  // The run's end: its exit code and the summary the results file records.
  'flip-end.mjs': `export default { apiVersion: 1, create: () => ({ onEnd(info) { info.exitCode = 0; info.summary.cases.failed = 0; } }) };`,
};

/** results.json as far as a run's outcome goes (no ids or timings). */
function outcome(dir: string) {
  const results = readResults(join(dir, '.out', 'results.json'));
  return {
    failures: results.summary.failures,
    cases: results.summary.cases,
    trials: results.summary.trials,
    byCase: ['s/good', 's/bad'].map((key) => {
      const c = caseOf(results, key);
      return { key, verdict: c.verdict, passed: c.passed, planned: c.planned, trials: c.trials.map((t) => ({ index: t.index, verdict: t.verdict, score: t.score, reply: t.reply })) };
    }),
  };
}

/** The JUnit file without its times. */
const junit = (dir: string) => readFileSync(join(dir, '.out', 'junit.xml'), 'utf8').replace(/ (time|timestamp)="[^"]*"/g, '');

describe('reporters get read-only views', () => {
  it('a reporter that flips verdicts, empties trials or rewrites the end changes neither results.json, JUnit nor the exit code, and is named', async () => {
    const plain = writeProject({ 'evals.config.mjs': CONFIG, 's.eval.yaml': EVALS });
    const without = await runCliInProcess(['run', '--reporter', 'json', '--reporter', 'junit', '--reporter', 'terminal'], { cwd: plain });
    expect(without.code, without.stdout + without.stderr).toBe(1);

    const dir = writeProject({ 'evals.config.mjs': CONFIG, 's.eval.yaml': EVALS, ...REPORTERS });
    // Before the built-in ones: each event reaches them first.
    const users = Object.keys(REPORTERS).flatMap((m) => ['--reporter', `./${m}`]);
    const r = await runCliInProcess(['run', ...users, '--reporter', 'json', '--reporter', 'junit', '--reporter', 'terminal'], { cwd: dir });
    expect(r.code, r.stdout + r.stderr).toBe(1);
    expect(outcome(dir)).toEqual(outcome(plain));
    expect(outcome(dir)).toMatchObject({ cases: { passed: 1, failed: 1 }, byCase: [{ verdict: 'passed' }, { verdict: 'failed', trials: [{ verdict: 'failed' }, { verdict: 'failed' }] }] });
    expect(junit(dir)).toEqual(junit(plain));
    expect(junit(dir)).toContain('<failure');
    // Each failed in its own hook, named, with no stack trace.
    const failures: Array<[string, string]> = [
      ['flip-trials.mjs', 'onTrialEnd'],
      ['flip-cases.mjs', 'onCaseEnd'],
      ['empty-trials.mjs', 'onCaseEnd'],
      ['flip-end.mjs', 'onEnd'],
    ];
    for (const [module, hook] of failures) expect(r.stderr).toContain(`reporter "./${module}" failed in ${hook}: Cannot `);
    expect(r.stderr).not.toMatch(STACK_FRAME);
    // The terminal says what it says without them.
    const shown = (out: string) => out.replace(/\d+(\.\d+)?m?s\b/g, 'T');
    expect(shown(r.stdout)).toEqual(shown(without.stdout));
  });
});

describe('custom assertions get a frozen context', () => {
  const TS_EVAL = `export default {
  suite: 'ts',
  target: 'agent',
  cases: [
    {
      id: 'rewrite',
      input: 'good',
      check(t) {
        t.expect('rewrites the reply', (ctx) => {
          ctx.reply = ctx.reply + ' NOPE';
          return true;
        });
        t.expect('rewrites the run', (ctx) => {
          ctx.run.reply = 'NOPE';
          return true;
        });
        t.contains('NOPE');
      },
    },
  ],
};
`;

  it('a write fails that assertion naming it; a later contains checks the real reply, which results.json records', async () => {
    const dir = writeProject({ 'evals.config.mjs': CONFIG, 'ts.eval.mjs': TS_EVAL });
    const r = await runCliInProcess(['run', '--reporter', 'json'], { cwd: dir });
    expect(r.code, r.stdout + r.stderr).toBe(1);
    const trial = caseOf(readResults(join(dir, '.out', 'results.json')), 'ts/rewrite').trials[0]!;
    expect(trial.reply).toBe('pass');
    expect(trial.trace).not.toMatchObject({ reply: 'NOPE' });
    const byName = Object.fromEntries(trial.assertions.map((a) => [a.name, a]));
    expect(Object.keys(byName)).toHaveLength(3);
    const [reply, run, contains] = trial.assertions;
    expect(reply).toMatchObject({ status: 'failed' });
    expect(reply!.message).toMatch(/^custom rewrites the reply threw: Cannot assign to read only property 'reply'/);
    expect(run).toMatchObject({ status: 'failed' });
    expect(run!.message).toMatch(/^custom rewrites the run threw: Cannot assign to read only property 'reply'/);
    expect(contains).toMatchObject({ kind: 'contains', status: 'failed' });
  });

  const RUN_EVAL = `export default {
  suite: 'ts',
  target: 'tools',
  cases: [
    {
      id: 'rewrite-run',
      input: 'go',
      check(t) {
        try {
          t.run().toolCalls[0].args.orderId = 'B2';
        } catch {}
        t.calledTool('lookup', { args: { orderId: 'A1' } });
      },
    },
  ],
};
`;

  it('a check that writes to t.run() changes neither what its assertions check nor the recorded run', async () => {
    // Under trace: full the results keep the tool arguments as they were.
    const config = CONFIG.replace("outputDir: '.out',", "outputDir: '.out',\n  trace: 'full',").replace(
      'targets: {',
      "targets: { tools: () => ({ reply: 'done', steps: [{ toolCalls: [{ name: 'lookup', args: { orderId: 'A1' } }] }] }),",
    );
    const dir = writeProject({ 'evals.config.mjs': config, 'ts.eval.mjs': RUN_EVAL });
    const r = await runCliInProcess(['run', '--reporter', 'json'], { cwd: dir });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const trial = caseOf(readResults(join(dir, '.out', 'results.json')), 'ts/rewrite-run').trials[0]!;
    expect(trial.trace.steps?.[0]?.toolCalls?.[0]?.args).toEqual({ orderId: 'A1' });
  });
});
