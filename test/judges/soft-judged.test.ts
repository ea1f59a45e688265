/**
 * The judged-assertion rule in a run (in-process, as `agent-evals run` runs it, with the terminal,
 * JUnit and GitHub reporters), against the offline fake judge (every rubric scores
 * 0.5): a judged miss is soft by default, so the case ends `scored` and the run exits 0; the
 * terminal says so in its last line; JUnit and GitHub tell the same story as the exit code. With
 * `--strict`, `strict: true` or `judgeSeverity: 'gate'` the same miss fails the run everywhere.
 * `judgeThreshold` moves the default threshold; an assertion's own threshold, `min` and severity win.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { defineConfig } from '../../src/config/define-config.js';
import { resolveConfig } from '../../src/config/load-config.js';
import { githubReporter } from '../../src/report/github.js';
import { junitReporter } from '../../src/report/junit.js';
import { removeTempDirs, tempDir } from '../support/cli.js';
import { explain, runFixtureInProcess, type FixtureRun, type FixtureRunOptions } from '../support/run-fixture-in-process.js';
import { caseOf } from './cli-helpers.js';

afterAll(removeTempDirs);

const FIXTURE = 'judges-soft';
const SOFT_NOTE = '1 case scored below a soft threshold: not failures; --strict (or strict: true in the config) fails them.';
const STRICT_NOTE = '1 case scored below a soft threshold: failures, since this run is strict (--strict or strict: true in the config).';

interface ReportedRun extends FixtureRun {
  junit: string;
  summary: string;
}

type Options = FixtureRunOptions & { configFile?: string };

const run = (opts: Options) => runFixtureInProcess(FIXTURE, opts);

/** A run with the JUnit and GitHub reporters writing to fresh files (the annotations on stdout, as in the CLI). */
async function runReported(opts: Options): Promise<ReportedRun> {
  const dir = tempDir('agent-evals-soft-judged-');
  const junitPath = join(dir, 'junit.xml');
  const summaryPath = join(dir, 'summary.md');
  const r = await run({
    ...opts,
    reporters: (_dir, stdout) => [junitReporter({ path: junitPath }), githubReporter({ out: stdout, summaryFile: summaryPath })],
  });
  return { ...r, junit: readFileSync(junitPath, 'utf8'), summary: readFileSync(summaryPath, 'utf8') };
}

const lastLine = (text: string) => text.trimEnd().split('\n').at(-1);
const count = (text: string, needle: string) => text.split(needle).length - 1;

describe.concurrent('a soft judged miss', () => {
  it('ends the trial and the case `scored`: exit 0, the closing line, no JUnit failure, a GitHub warning', async () => {
    const r = await runReported({ paths: ['evals/soft.eval.yaml'] });
    expect(r.code, explain(r)).toBe(0);

    const c = caseOf(r.results(), 'soft/below');
    expect(c.verdict).toBe('scored');
    expect(c.trials[0]!.verdict).toBe('scored');
    const [gate, judged] = c.trials[0]!.assertions;
    expect(gate).toMatchObject({ kind: 'contains', severity: 'gate', status: 'passed' });
    expect(judged).toMatchObject({ kind: 'judge', severity: 'soft', status: 'failed', score: 0.5, threshold: 0.7 });

    expect(lastLine(r.stdout)).toBe(SOFT_NOTE);

    expect(r.junit).not.toContain('<failure');
    expect(r.junit).toContain('<testsuites name="agent-evals" tests="1" failures="0"');
    expect(r.junit).toContain('<property name="verdict" value="scored"/>');
    // The miss is still on record, in the case's output.
    expect(r.junit).toMatch(/<system-out>[^<]*judge &quot;gives a delivery date&quot;: score 0\.50 &lt; 0\.70<\/system-out>/);

    expect(r.stdout).toMatch(/^::warning file=evals\/soft\.eval\.yaml,line=5,title=soft\/below scored/m);
    expect(r.stdout).not.toContain('::error');
    expect(r.summary).toMatch(/^### agent-evals: ✅/);
    expect(r.summary).toContain(SOFT_NOTE);
  });

  it.each([
    ['--strict', { flags: { strict: true } }],
    ['strict: true in the config', { configFile: 'strict.config.mjs' }],
  ] as Array<[string, Options]>)('fails the run with %s: exit 1, a JUnit failure and a GitHub error', async (_, opts) => {
    const r = await runReported({ paths: ['evals/soft.eval.yaml'], ...opts });
    expect(r.code, explain(r)).toBe(1);
    expect(caseOf(r.results(), 'soft/below').verdict).toBe('scored');
    expect(lastLine(r.stdout)).toBe(STRICT_NOTE);
    expect(count(r.junit, '<failure ')).toBe(1);
    expect(r.junit).toContain('<failure type="scored"');
    expect(r.junit).toContain('<testsuites name="agent-evals" tests="1" failures="1"');
    expect(r.stdout).toMatch(/^::error file=evals\/soft\.eval\.yaml,line=5,title=soft\/below scored/m);
    expect(r.stdout).not.toContain('::warning');
    expect(r.summary).toMatch(/^### agent-evals: ❌/);
  });

  it("fails the case with judgeSeverity: 'gate': exit 1, the judged assertion a failed gate, a JUnit failure", async () => {
    const r = await runReported({ paths: ['evals/soft.eval.yaml'], configFile: 'gate.config.mjs' });
    expect(r.code, explain(r)).toBe(1);
    const c = caseOf(r.results(), 'soft/below');
    expect(c.verdict).toBe('failed');
    expect(c.trials[0]!.assertions[1]).toMatchObject({ kind: 'judge', severity: 'gate', status: 'failed', score: 0.5, threshold: 0.7 });
    expect(r.stdout).not.toContain('scored below a soft threshold');
    expect(count(r.junit, '<failure ')).toBe(1);
    expect(r.junit).toContain('<failure type="failed"');
    expect(r.stdout).toMatch(/^::error file=evals\/soft\.eval\.yaml,line=5,title=soft\/below failed/m);
  });

  it('--no-strict overrides strict: true in the config', async () => {
    const r = await runReported({ paths: ['evals/soft.eval.yaml'], configFile: 'strict.config.mjs', flags: { strict: false } });
    expect(r.code, explain(r)).toBe(0);
    expect(lastLine(r.stdout)).toBe(SOFT_NOTE);
    expect(r.junit).not.toContain('<failure');
  });
});

describe.concurrent('explicit settings win over the config', () => {
  it('an assertion with severity: soft stays soft under judgeSeverity: gate; severity: gate fails under the default', async () => {
    const [gated, plain] = await Promise.all([
      run({ paths: ['evals/explicit.eval.yaml'], configFile: 'gate.config.mjs', selection: { filter: ['explicit/soft'] } }),
      run({ paths: ['evals/explicit.eval.yaml'], selection: { filter: ['explicit/gate'] } }),
    ]);
    expect(gated.code, explain(gated)).toBe(0);
    expect(caseOf(gated.results(), 'explicit/soft').trials[0]!.assertions[0]).toMatchObject({ severity: 'soft', status: 'failed' });
    expect(plain.code, explain(plain)).toBe(1);
    expect(caseOf(plain.results(), 'explicit/gate').trials[0]!.assertions[0]).toMatchObject({ severity: 'gate', status: 'failed' });
  });

  it('judgeThreshold changes the verdict of an assertion without its own threshold; threshold, min and pairwise keep theirs', async () => {
    const [lowered, plain] = await Promise.all([
      run({ paths: ['evals/soft.eval.yaml', 'evals/explicit.eval.yaml'], configFile: 'threshold.config.mjs' }),
      run({ paths: ['evals/soft.eval.yaml', 'evals/explicit.eval.yaml'] }),
    ]);
    const judgedOf = (r: FixtureRun, key: string) => caseOf(r.results(), key).trials[0]!.assertions.find((a) => a.kind !== 'contains')!;

    // 0.5 misses the default 0.7 but meets judgeThreshold 0.4.
    expect(judgedOf(plain, 'soft/below')).toMatchObject({ status: 'failed', threshold: 0.7 });
    expect(caseOf(plain.results(), 'soft/below').verdict).toBe('scored');
    expect(judgedOf(lowered, 'soft/below')).toMatchObject({ status: 'passed', score: 0.5, threshold: 0.4 });
    expect(caseOf(lowered.results(), 'soft/below').verdict).toBe('passed');
    expect(lowered.stdout).toMatch(/✓ 1\/1 \(needed 1\)\s+soft\/below/);

    for (const r of [lowered, plain]) {
      expect(judgedOf(r, 'explicit/threshold')).toMatchObject({ status: 'failed', threshold: 0.6 });
      expect(judgedOf(r, 'explicit/min')).toMatchObject({ status: 'failed', threshold: 0.6 });
      // A tie in both orders is 0.5: pairwise keeps its threshold of 1 whatever judgeThreshold says.
      expect(judgedOf(r, 'explicit/pairwise')).toMatchObject({ status: 'failed', score: 0.5, threshold: 1 });
    }
  });

  it('defineConfig types the keys; unset, they resolve to not strict, soft and 0.7', () => {
    const config = defineConfig({ strict: true, judgeSeverity: 'gate', judgeThreshold: 0.5 });
    // @ts-expect-error judgeSeverity is 'soft' or 'gate'
    defineConfig({ judgeSeverity: 'hard' });
    expect(resolveConfig(config, '/project', null)).toMatchObject({ strict: true, judgeSeverity: 'gate', judgeThreshold: 0.5 });
    expect(resolveConfig({}, '/project', null)).toMatchObject({ strict: false, judgeSeverity: 'soft', judgeThreshold: 0.7 });
  });
});

describe.concurrent('a label', () => {
  it('is printed once wherever a labelled miss is reported: terminal, GitHub, JUnit', async () => {
    const [plain, strict] = await Promise.all([runReported({ paths: ['evals/labels.eval.ts'] }), runReported({ paths: ['evals/labels.eval.ts'], flags: { strict: true } })]);
    for (const r of [plain, strict]) {
      expect(r.code, explain(r)).toBe(1);
      for (const label of ['LABEL-RUBRIC', 'LABEL-GATE']) {
        const lines = r.stdout.split('\n').filter((l) => l.includes(label));
        // One terminal line and one annotation, each naming the label once.
        expect(lines, r.stdout).toHaveLength(2);
        for (const line of lines) expect(count(line, label), line).toBe(1);
        expect(count(r.junit, label), r.junit).toBe(1);
        expect(count(r.summary, label), r.summary).toBe(1);
      }
      const judged = caseOf(r.results(), 'labels/judged').trials[0]!.assertions[0]!;
      expect(judged).toMatchObject({ name: 'LABEL-RUBRIC', status: 'failed' });
      expect(judged.message).toBe('judge "gives a delivery date": score 0.50 < 0.70');
    }
  });
});
