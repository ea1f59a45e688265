/**
 * `agent-evals run --resume [run-id]` through the built CLI: a run interrupted part-way (by Ctrl-C,
 * sent by the target itself at a given call; or killed hard, SIGKILL, before it wrote any results)
 * is finished from its run folder: the trials it recorded are kept, the target is called only for
 * the rest, and one results document covers the whole plan, equal in cases and verdicts to an
 * uninterrupted run. A plan that changed since is refused (exit 2). Needs dist/ (`npm run build`).
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { Results } from '../../src/core/results-schema.js';
import { removeTempDirs, spawnCli, STACK_FRAME } from '../support/cli.js';
import { runCliInProcess, startCliInProcess, type InProcessCli } from '../support/cli-in-process.js';
import { readResults } from '../support/results-helpers.js';
import { writeProject } from '../support/temp-project.js';

afterAll(removeTempDirs);

// The target appends each input to CALLS; at call KILL_AT, once a finished case is on disk, it asks
// the test to kill its process (SIGKILL: no results written) and waits. In-process, it tells the
// test of each call.
const CONFIG = `import { appendFileSync, existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
let calls = 0;
const finishedCaseOnDisk = () => {
  const runs = '.agent-evals/runs';
  return existsSync(runs) && readdirSync(runs).some((id) => existsSync(join(runs, id, 'cases.jsonl')) && readFileSync(join(runs, id, 'cases.jsonl'), 'utf8').includes('\\n'));
};
export default {
  targets: {
    async agent(input) {
      appendFileSync(process.env.CALLS, input + '\\n');
      calls += 1;
      globalThis.__resumeTestCall?.(calls);
      if (String(calls) === process.env.KILL_AT) {
        while (!finishedCaseOnDisk()) await new Promise((r) => setTimeout(r, 10));
        process.stderr.write('kill me now\\n');
        await new Promise(() => {});
      }
      return input === 'bad' ? 'nope' : 'ok ' + input;
    },
  },
  concurrency: 1,
  // The results file, and with it the run folder (its plan record and streamed cases) a resume reads.
  reporters: ['terminal', 'json'],
};
`;
const evalFile = (cInput = 'yo') => `suite: s
target: agent
repeat: 4
cases:
  - { id: a, input: hi, assert: [{ type: contains, value: ok }] }
  - { id: b, input: bad, assert: [{ type: contains, value: ok }] }
  - { id: c, input: ${cInput}, assert: [{ type: contains, value: ok }] }
`;

declare global {
  var __resumeTestCall: ((n: number) => void) | undefined;
}
afterEach(() => {
  globalThis.__resumeTestCall = undefined;
});

function project() {
  const dir = writeProject({ 'evals.config.mjs': CONFIG, 'evals/s.eval.yaml': evalFile() });
  const env = { CALLS: join(dir, 'calls.txt') };
  const calls = () => (existsSync(env.CALLS) ? readFileSync(env.CALLS, 'utf8').split('\n').filter(Boolean) : []);
  const cli = (args: string[], extra: Record<string, string> = {}) => runCliInProcess(args, { cwd: dir, env: { ...env, ...extra } });
  return { dir, env, calls, cli, results: () => readResults(join(dir, '.agent-evals', 'results.json')) };
}

/** A run of 12 trials (3 cases × 4, one at a time) that Ctrl-C stops as the 6th target call is made. */
async function interruptedAtHalf(p: ReturnType<typeof project>) {
  // The run starts asynchronously: the hook below is in place before the target's first call.
  const cli: InProcessCli = startCliInProcess(['run', '--no-early-stop'], { cwd: p.dir, env: p.env });
  globalThis.__resumeTestCall = (n) => {
    if (n === 6) expect(cli.kill('SIGINT')).toBe(true);
  };
  const r = await cli.done;
  globalThis.__resumeTestCall = undefined;
  expect(r.code, r.stdout + r.stderr).toBe(130);
  return p.results();
}

/** What must be equal between a resumed run and an uninterrupted one. */
const verdicts = (r: Results) =>
  r.cases.map((c) => ({
    key: `${c.suite}/${c.id}`,
    verdict: c.verdict,
    passed: c.passed,
    planned: c.planned,
    notRun: c.notRun,
    flaky: c.flaky,
    score: c.score,
    trials: c.trials.map((t) => [t.index, t.verdict, t.reply]),
  }));

describe('run --resume', () => {
  it('finishes a Ctrl-C-interrupted run: the target is called only for the missing half, one document equal to an uninterrupted run', async () => {
    const p = project();
    const cut = await interruptedAtHalf(p);
    expect(cut.run.interrupted).toBe(true);
    // a ran whole, b got 2 of its 4 trials (the 6th call was in flight at the signal and finished), c none.
    expect(p.calls()).toEqual(['hi', 'hi', 'hi', 'hi', 'bad', 'bad']);
    expect(cut.cases.map((c) => [c.id, c.trials.length, c.notRunReason])).toEqual([
      ['a', 4, undefined],
      ['b', 2, 'interrupted'],
      ['c', 0, 'interrupted'],
    ]);
    const runs = readdirSync(join(p.dir, '.agent-evals', 'runs'));
    expect(runs).toEqual([cut.run.id]);
    expect(existsSync(join(p.dir, '.agent-evals', 'runs', cut.run.id, 'plan.json'))).toBe(true);

    const resumed = await p.cli(['run', '--resume', cut.run.id, '--no-early-stop']);
    expect(resumed.code, resumed.stdout + resumed.stderr).toBe(1);
    expect(resumed.stderr).toContain(`resuming run ${cut.run.id}: 6 trials kept, up to 6 to run`);
    // Only the missing half: b's last two trials and c's four.
    expect(p.calls().slice(6)).toEqual(['bad', 'bad', 'yo', 'yo', 'yo', 'yo']);
    const whole = p.results();
    expect(whole.run.interrupted).toBe(false);
    expect(whole.run.id).not.toBe(cut.run.id);
    expect(whole.summary.trials).toMatchObject({ planned: 12, run: 12, notRun: 0, passed: 8 });
    expect(whole.summary.cases).toMatchObject({ total: 3, passed: 2, failed: 1 });
    // The kept trials are the recorded ones, as recorded.
    expect(whole.cases[0]!.trials).toEqual(cut.cases[0]!.trials);
    expect(whole.cases[1]!.trials.slice(0, 2)).toEqual(cut.cases[1]!.trials);

    // The same plan run without an interruption.
    const full = await p.cli(['run', '--no-early-stop', '--json', 'full.json']);
    expect(full.code).toBe(1);
    expect(verdicts(whole)).toEqual(verdicts(readResults(join(p.dir, 'full.json'))));
  });

  it('without a run id resumes the newest run folder; a resumed run that is complete runs nothing more', async () => {
    const p = project();
    await interruptedAtHalf(p);
    expect((await p.cli(['run', '--resume', '--no-early-stop'])).code).toBe(1);
    expect(p.calls()).toHaveLength(12);
    // The newest folder is now the resumed run's own, which finished: everything is kept.
    const again = await p.cli(['run', '--resume', '--no-early-stop']);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/12 trials kept, none to run/);
    expect(p.calls()).toHaveLength(12);
    expect(p.results().summary.trials).toMatchObject({ planned: 12, run: 12 });
  });

  it("does not believe a run folder edited to say a failing trial passed: a kept trial's verdict comes from its recorded assertions", async () => {
    const p = project();
    expect((await p.cli(['run', '--no-early-stop'])).code).toBe(1);
    const recorded = p.results();
    expect(recorded.cases.find((c) => c.id === 'b')!.verdict).toBe('failed');
    // Every trial of the failing case b edited to pass (and the case with them), its assertions left as they were.
    const casesFile = join(p.dir, '.agent-evals', 'runs', recorded.run.id, 'cases.jsonl');
    const edited = readFileSync(casesFile, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => {
        const c = JSON.parse(line) as Results['cases'][number];
        if (c.id !== 'b') return line;
        return JSON.stringify({ ...c, verdict: 'passed', passed: c.planned, trials: c.trials.map((t) => ({ ...t, verdict: 'passed', score: 1 })) });
      });
    writeFileSync(casesFile, edited.join('\n') + '\n');
    const resumed = await p.cli(['run', '--resume', recorded.run.id, '--no-early-stop']);
    expect(resumed.code, resumed.stderr).toBe(1);
    expect(resumed.stderr).toMatch(/12 trials kept, none to run/);
    expect(p.calls()).toHaveLength(12);
    const whole = p.results();
    expect(whole.cases.find((c) => c.id === 'b')).toMatchObject({ verdict: 'failed', passed: 0, score: { mean: 0 } });
    expect(whole.cases.find((c) => c.id === 'b')!.trials.map((t) => t.verdict)).toEqual(['failed', 'failed', 'failed', 'failed']);
    expect(verdicts(whole)).toEqual(verdicts(recorded));
  });

  it('finishes a run killed hard (SIGKILL, no results file) from its plan record and the cases it streamed', async () => {
    const p = project();
    // A real process: the kill must take it whole, with whatever its run folder holds at that moment.
    const cli = spawnCli(['run', '--no-early-stop'], { cwd: p.dir, env: { ...p.env, KILL_AT: '6' } });
    await cli.waitForStderr(/kill me now/, 30_000);
    cli.child.kill('SIGKILL');
    expect((await cli.done).signal).toBe('SIGKILL');
    expect(existsSync(join(p.dir, '.agent-evals', 'results.json'))).toBe(false);
    const [runId] = readdirSync(join(p.dir, '.agent-evals', 'runs'));
    const streamed = readFileSync(join(p.dir, '.agent-evals', 'runs', runId!, 'cases.jsonl'), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Results['cases'][number]);
    // Case a finished before the kill; b was cut mid-way (its trials were never recorded), so it runs again whole.
    expect(streamed.map((c) => c.id)).toEqual(['a']);
    expect(p.calls()).toHaveLength(6);

    const resumed = await p.cli(['run', '--resume', '--no-early-stop']);
    expect(resumed.code, resumed.stdout + resumed.stderr).toBe(1);
    expect(p.calls().slice(6)).toEqual(['bad', 'bad', 'bad', 'bad', 'yo', 'yo', 'yo', 'yo']);
    const whole = p.results();
    expect(whole.summary.trials).toMatchObject({ planned: 12, run: 12, notRun: 0 });
    expect(whole.cases.map((c) => [c.id, c.verdict])).toEqual([
      ['a', 'passed'],
      ['b', 'failed'],
      ['c', 'passed'],
    ]);
    expect(whole.cases[0]!.trials).toEqual(streamed[0]!.trials);
  }, 60_000);

  it('refuses (exit 2, no target call) a case edited since the recording, naming the plan record, the flag and the case', async () => {
    const p = project();
    const cut = await interruptedAtHalf(p);
    writeFileSync(join(p.dir, 'evals', 's.eval.yaml'), evalFile('hey'));
    const r = await p.cli(['run', '--resume', '--no-early-stop']);
    expect(r.code, r.stdout + r.stderr).toBe(2);
    expect(r.stderr).toContain(join('.agent-evals', 'runs', cut.run.id, 'plan.json'));
    expect(r.stderr).toMatch(/--resume: the plan changed since run \S+: case s\/c changed since the recording/);
    expect(r.stderr).not.toMatch(STACK_FRAME);
    expect(p.calls()).toHaveLength(6);

    // A different plan (another trial count) is refused the same way.
    writeFileSync(join(p.dir, 'evals', 's.eval.yaml'), evalFile());
    const more = await p.cli(['run', '--resume', '--repeat', '5']);
    expect(more.code).toBe(2);
    expect(more.stderr).toContain('case s/a planned 4 trials there, 5 now');
  });

  it('refuses (exit 2) when there is no run folder to resume', async () => {
    const p = project();
    const none = await p.cli(['run', '--resume']);
    expect(none.code, none.stdout + none.stderr).toBe(2);
    expect(none.stderr).toMatch(/--resume: no run to resume: \.agent-evals[/\\]runs holds no run folder with a plan\.json/);
    const named = await p.cli(['run', '--resume', '20260101-000000-abcdef']);
    expect(named.code).toBe(2);
    expect(named.stderr).toMatch(/--resume: no run folder \.agent-evals[/\\]runs[/\\]20260101-000000-abcdef/);
    // An eval path after --resume is taken for its run id: said so.
    const path = await p.cli(['run', '--resume', 'evals/s.eval.yaml']);
    expect(path.code).toBe(2);
    expect(path.stderr).toContain('--resume: "evals/s.eval.yaml" is not a run id');
    expect(p.calls()).toEqual([]);
  });
});
