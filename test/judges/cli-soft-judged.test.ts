/**
 * The judged-assertion rule through the CLI, against the offline fake judge (every rubric scores
 * 0.5): a judged miss is soft by default, so the case ends `scored` and the run exits 0; the
 * terminal says so in its last line; JUnit and GitHub tell the same story as the exit code. With
 * `--strict`, `strict: true` or `judgeSeverity: 'gate'` the same miss fails the run everywhere.
 * `judgeThreshold` moves the default threshold; an assertion's own threshold, `min` and severity win.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { defineConfig } from '../../src/config/define-config.js';
import { resolveConfig } from '../../src/config/load-config.js';
import { removeTempDirs, tempDir } from '../support/cli.js';
import { caseOf, explain, runJudgeCli, type JudgeCliRun } from './cli-helpers.js';

afterAll(removeTempDirs);

const FIXTURE = 'judges-soft';
const SOFT_NOTE = '1 case scored below a soft threshold: not failures; --strict (or strict: true in the config) fails them.';
const STRICT_NOTE = '1 case scored below a soft threshold: failures, since this run is strict (--strict or strict: true in the config).';

interface ReportedRun extends JudgeCliRun {
  junit: string;
  summary: string;
}

/** A run with the JUnit and GitHub reporters writing to fresh files. */
async function runReported(args: string[]): Promise<ReportedRun> {
  const dir = tempDir('agent-evals-soft-judged-');
  const junitPath = join(dir, 'junit.xml');
  const summaryPath = join(dir, 'summary.md');
  const r = await runJudgeCli(FIXTURE, ['run', ...args, '--reporter', `junit=${junitPath}`, '--reporter', `github=${summaryPath}`]);
  return { ...r, junit: readFileSync(junitPath, 'utf8'), summary: readFileSync(summaryPath, 'utf8') };
}

const lastLine = (text: string) => text.trimEnd().split('\n').at(-1);
const count = (text: string, needle: string) => text.split(needle).length - 1;

describe.concurrent('a soft judged miss', () => {
  it('ends the trial and the case `scored`: exit 0, the closing line, no JUnit failure, a GitHub warning', async () => {
    const r = await runReported(['evals/soft.eval.yaml']);
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
    ['--strict', ['--strict']],
    ['strict: true in the config', ['-c', 'strict.config.mjs']],
  ])('fails the run with %s: exit 1, a JUnit failure and a GitHub error', async (_, flags) => {
    const r = await runReported(['evals/soft.eval.yaml', ...flags]);
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
    const r = await runReported(['evals/soft.eval.yaml', '-c', 'gate.config.mjs']);
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
    const r = await runReported(['evals/soft.eval.yaml', '-c', 'strict.config.mjs', '--no-strict']);
    expect(r.code, explain(r)).toBe(0);
    expect(lastLine(r.stdout)).toBe(SOFT_NOTE);
    expect(r.junit).not.toContain('<failure');
  });
});

describe.concurrent('explicit settings win over the config', () => {
  it('an assertion with severity: soft stays soft under judgeSeverity: gate; severity: gate fails under the default', async () => {
    const [gated, plain] = await Promise.all([
      runJudgeCli(FIXTURE, ['run', 'evals/explicit.eval.yaml', '-c', 'gate.config.mjs', '--filter', 'explicit/soft']),
      runJudgeCli(FIXTURE, ['run', 'evals/explicit.eval.yaml', '--filter', 'explicit/gate']),
    ]);
    expect(gated.code, explain(gated)).toBe(0);
    expect(caseOf(gated.results(), 'explicit/soft').trials[0]!.assertions[0]).toMatchObject({ severity: 'soft', status: 'failed' });
    expect(plain.code, explain(plain)).toBe(1);
    expect(caseOf(plain.results(), 'explicit/gate').trials[0]!.assertions[0]).toMatchObject({ severity: 'gate', status: 'failed' });
  });

  it('judgeThreshold changes the verdict of an assertion without its own threshold; threshold, min and pairwise keep theirs', async () => {
    const [lowered, plain] = await Promise.all([
      runJudgeCli(FIXTURE, ['run', 'evals/soft.eval.yaml', 'evals/explicit.eval.yaml', '-c', 'threshold.config.mjs']),
      runJudgeCli(FIXTURE, ['run', 'evals/soft.eval.yaml', 'evals/explicit.eval.yaml']),
    ]);
    const judgedOf = (r: JudgeCliRun, key: string) => caseOf(r.results(), key).trials[0]!.assertions.find((a) => a.kind !== 'contains')!;

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

  it('a config key outside its range is a load error naming the field (exit 2)', async () => {
    const dir = tempDir('agent-evals-soft-judged-config-');
    const config = join(dir, 'bad.config.mjs');
    writeFileSync(config, "export default { judgeThreshold: 1.5, judgeSeverity: 'hard' };\n");
    const r = await runJudgeCli(FIXTURE, ['run', '-c', config]);
    expect(r.code, explain(r)).toBe(2);
    expect(r.stderr).toMatch(/judgeThreshold/);
    expect(r.stderr).toMatch(/judgeSeverity/);
  });
});

describe.concurrent('a label', () => {
  it('is printed once wherever a labelled miss is reported: terminal, GitHub, JUnit', async () => {
    const [plain, strict] = await Promise.all([runReported(['evals/labels.eval.ts']), runReported(['evals/labels.eval.ts', '--strict'])]);
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
