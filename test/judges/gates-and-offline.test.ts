/**
 * Judges in a run (in-process, as `agent-evals run` runs them): gates first (a failed gate means zero judge requests), one request per
 * judged assertion whatever the reporters, `No judge configured.` when none is, and offline runs
 * (`--dry-run`, the `fake` judge with fixtures) that make no request at all.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, type TestContext } from 'vitest';
import { jsonReporter } from '../../src/report/json.js';
import { STACK_FRAME, fixtureDir, tempDir } from '../support/cli.js';
import { runCliInProcess } from '../support/cli-in-process.js';
import { caseOf, fakeOpenAI, openaiEnv, readResults } from './cli-helpers.js';
import { explain, runFixtureInProcess } from '../support/run-fixture-in-process.js';

/** A fake OpenAI server closed when this test (and only this one: tests run concurrently) ends. */
async function openai(t: TestContext) {
  const f = await fakeOpenAI();
  t.onTestFinished(() => f.close());
  return f;
}

describe.concurrent('gates first', () => {
  it('a trial whose gate failed makes zero judge requests; its judge is skipped and counted', async (t) => {
    const f = await openai(t);
    const r = await runFixtureInProcess('judges-cli', {
      selection: { filter: ['gates/*'], repeat: 2 },
      flags: { earlyStop: false },
      cache: false,
      env: openaiEnv(f),
      judge: 'openai:gpt-4.1-mini',
    });
    expect(r.code, explain(r)).toBe(1);
    expect(r.calls()).toHaveLength(4);
    const res = r.results();

    const failed = caseOf(res, 'gates/gate-fails');
    expect(failed.verdict).toBe('failed');
    for (const t of failed.trials) {
      const judged = t.assertions.find((a) => a.kind === 'judge')!;
      expect(judged.status).toBe('skipped');
      expect(judged.judge).toBeUndefined();
      expect(t.usage.judge.calls).toBe(0);
      expect(t.usage.judge.inputTokens + t.usage.judge.outputTokens).toBe(0);
    }
    expect(failed.usage.judge.calls).toBe(0);
    expect(res.summary.counters.judgeCallsSkippedByGates).toBe(2);

    // The other case's judge was asked once per trial: every request the fake saw came from it.
    const passed = caseOf(res, 'gates/gate-passes');
    expect(passed.verdict).toBe('passed');
    expect(passed.trials.map((t) => t.assertions.find((a) => a.kind === 'judge')!.status)).toEqual(['passed', 'passed']);
    expect(f.count).toBe(2);
    expect(res.summary.usage.judge.calls).toBe(2);
  });

  it('a judged assertion read by several reporters is requested exactly once', async (t) => {
    const f = await openai(t);
    const tmp = tempDir();
    const a = join(tmp, 'a.json');
    const b = join(tmp, 'b.json');
    const r = await runFixtureInProcess('judges-cli', {
      selection: { filter: ['gates/gate-passes'] },
      verbose: true,
      env: openaiEnv(f),
      judge: 'openai:gpt-4.1-mini',
      reporters: () => [a, b].map((path) => jsonReporter({ path, outputDir: join(tmp, 'out'), version: 'test' })),
    });
    expect(r.code, explain(r)).toBe(0);
    expect(f.count).toBe(1);
    expect(r.stdout).toContain('gate-passes');
    for (const path of [a, b]) {
      const judged = caseOf(readResults(path), 'gates/gate-passes').trials[0]!.assertions.find((x) => x.kind === 'judge')!;
      expect(judged).toMatchObject({ status: 'passed', score: 0.9, reason: 'says where the order is' });
      expect(judged.judge?.usage.calls).toBe(1);
    }
  });
});

// Not concurrent: the CLI reads the fixture's COUNT_FILE and OUT_DIR from the process environment.
describe('no judge configured, sequentially', () => {
  it('a judged case with no judge anywhere (through the CLI) is exit 2 before any target runs, naming the file, the case and how to give a judge', async () => {
    const dir = tempDir('agent-evals-no-judge-');
    const countFile = join(dir, 'calls.txt');
    const r = await runCliInProcess(['run', '--filter', 'gates/gate-passes'], { cwd: fixtureDir('judges-cli'), env: { OUT_DIR: join(dir, 'out'), COUNT_FILE: countFile, JUDGE_SPEC: undefined } });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain('evals/gates.eval.yaml:10: assert: judge "GATES-CRITERIA says where the order is": a judged assertion and no judge to grade it');
    expect(r.stderr).toContain('EVALS_JUDGE_PROVIDER and EVALS_JUDGE_MODEL');
    expect(r.stderr).not.toMatch(STACK_FRAME);
    expect(existsSync(countFile) ? readFileSync(countFile, 'utf8') : '').toBe('');
  });
});

describe.concurrent('no judge configured', () => {
  it('the same case passes once the environment names a judge (EVALS_JUDGE_PROVIDER / EVALS_JUDGE_MODEL)', async (t) => {
    const f = await openai(t);
    const r = await runFixtureInProcess('judges-cli', {
      selection: { filter: ['gates/gate-passes'] },
      env: { ...openaiEnv(f), EVALS_JUDGE_PROVIDER: 'openai', EVALS_JUDGE_MODEL: 'gpt-4.1-mini' },
    });
    expect(r.code, explain(r)).toBe(0);
    expect(f.count).toBe(1);
  });
});

describe.concurrent('offline judging', () => {
  it('--dry-run makes zero requests though a real judge is configured, and passes with the fixed score', async (t) => {
    const f = await openai(t);
    const r = await runFixtureInProcess('judges-cli', {
      selection: { filter: ['gates/gate-passes'], repeat: 2 },
      dryRun: true,
      env: openaiEnv(f),
      judge: 'openai:gpt-4.1-mini',
    });
    expect(r.code, explain(r)).toBe(0);
    expect(f.count).toBe(0);
    const res = r.results();
    for (const t of caseOf(res, 'gates/gate-passes').trials) {
      const judged = t.assertions.find((a) => a.kind === 'judge')!;
      expect(judged).toMatchObject({ status: 'passed', score: 1 });
      expect(judged.judge?.provider).toBe('fake');
      expect(judged.judge?.usage.calls).toBe(0);
    }
    expect(res.summary.usage.judge).toMatchObject({ calls: 0, inputTokens: 0, outputTokens: 0 });
  });

  it('a `fake` judge with a fixtures file answers from the fixture; no key, no request', async (t) => {
    const f = await openai(t);
    const r = await runFixtureInProcess('judges-fake', { env: { OPENAI_BASE_URL: f.url } });
    expect(f.count).toBe(0);
    const res = r.results();
    const judgedOf = (key: string) => caseOf(res, key).trials[0]!.assertions[0]!;
    expect(judgedOf('fake/low-rubric')).toMatchObject({ status: 'failed', score: 0.3, reason: 'FIXTURE-LOW the reply is vague' });
    expect(caseOf(res, 'fake/low-rubric').verdict).toBe('scored');
    expect(judgedOf('fake/high')).toMatchObject({ kind: 'closedQa', status: 'passed', score: 1, reason: 'FIXTURE-HIGH yes, it gives a status' });
    // No fixture matches: the fixed passing score.
    expect(judgedOf('fake/unmatched')).toMatchObject({ status: 'passed', score: 1 });
    expect(res.summary.usage.judge.calls).toBe(0);
    // `scored` is not a failure without --strict.
    expect(r.code, explain(r)).toBe(0);
  });
});
