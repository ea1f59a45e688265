/**
 * `--shard k/n` and `agent-evals merge`: three shards run every case once, their merge is the
 * unsharded run (case verdicts, summary, exit code), and merge refuses parts that are not one run.
 * The CLI's `main` runs in-process; the merge that must exit as the unsharded run is the spawned binary.
 */
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeTempDirs, runCli, STACK_FRAME } from '../support/cli.js';
import { runCliInProcess } from '../support/cli-in-process.js';
import { writeProject } from '../support/temp-project.js';
import { ResultsSchema, type CaseResult, type Results } from '../../src/core/results-schema.js';

afterAll(() => removeTempDirs());

const CONFIG = `export default {
  evals: ['**/*.eval.yaml'],
  outputDir: '.out',
  earlyStop: false,
  targets: {
    // Replies with its input; "flip" passes on even trials only.
    echo: (input, ctx) => (input === 'flip' ? (ctx.trial.trial % 2 === 0 ? 'pass' : 'fail') : input),
  },
};
`;

/** A suite whose cases have the given trial counts; `fail` marks the case that always fails. */
function suite(name: string, repeats: number[], fail = -1, flip = -1): string {
  const cases = repeats.map(
    (r, i) => `  - id: c${i}
    repeat: ${r}
    input: ${i === fail ? 'fail' : i === flip ? 'flip' : 'pass'}
${i === flip ? '    passRate: 0.5\n' : ''}    assert: [{ type: equals, value: pass }]`,
  );
  return `suite: ${name}\ntarget: echo\ncases:\n${cases.join('\n')}\n`;
}

const read = (path: string): Results => ResultsSchema.parse(JSON.parse(readFileSync(path, 'utf8')));
const key = (c: CaseResult) => `${c.suite}/${c.id}`;
/** What a case's verdict is made of; trial timings and replies' run-specific parts are left out. */
const verdictOf = (c: CaseResult) => ({
  key: key(c),
  verdict: c.verdict,
  passed: c.passed,
  required: c.required,
  planned: c.planned,
  notRun: c.notRun,
  flaky: c.flaky,
  score: round(c.score),
  passRate: c.passRate,
  usage: c.usage,
  trials: c.trials.map((t) => [t.index, t.verdict, t.score]),
});
/** Means to 12 places: a run sums trial scores in the order trials end, so the last bits vary from run to run. */
const round = (x: { mean: number; stddev: number }) => ({ mean: x.mean.toFixed(12), stddev: x.stddev.toFixed(12) });
/** The summary but for the run's own warnings (run id, timings and argv are in `run`, not compared). */
const summaryOf = (r: Results) => ({
  cases: r.summary.cases,
  trials: r.summary.trials,
  passRate: r.summary.passRate,
  score: round(r.summary.score),
  usage: r.summary.usage,
  counters: r.summary.counters,
  failures: r.summary.failures,
});

describe('--shard k/n and merge', () => {
  const dir = writeProject({
    'evals.config.mjs': CONFIG,
    'evals/alpha.eval.yaml': suite('alpha', [1, 5, 2, 3, 1], 1),
    'evals/beta.eval.yaml': suite('beta', [4, 1, 1, 2, 6], -1, 0),
    'evals/gamma.eval.yaml': suite('gamma', [2, 3, 1, 1], 3),
  });
  const out = (name: string) => join(dir, name);
  let full: Results;
  let fullCode: number | null;
  const shards: Results[] = [];

  beforeAll(async () => {
    const runs = await Promise.all([
      runCliInProcess(['run', '--silent', '--json', 'full.json'], { cwd: dir }),
      ...[1, 2, 3].map((k) => runCliInProcess(['run', '--silent', '--shard', `${k}/3`, '--json', `s${k}.json`], { cwd: dir })),
    ]);
    for (const r of runs) expect(r.code === 0 || r.code === 1, r.stdout + r.stderr).toBe(true);
    fullCode = runs[0].code;
    full = read(out('full.json'));
    for (const k of [1, 2, 3]) shards.push(read(out(`s${k}.json`)));
  }, 60_000);

  it('the three shards run every case exactly once, all its trials together, balanced by trials', () => {
    const all = full.cases.map(key);
    expect(all).toHaveLength(14);
    const parts = shards.map((s) => s.cases.map(key));
    for (const p of parts) expect(p.length).toBeGreaterThan(0);
    const union = parts.flat();
    expect(new Set(union).size, 'a case ran in two shards').toBe(union.length);
    expect([...union].sort()).toEqual([...all].sort());
    // Each case's trials all ran in its one shard.
    for (const s of shards) for (const c of s.cases) expect(c.trials.length).toBe(c.planned);
    // Greedy by trials: no shard is more than the largest case (6 trials) above another.
    const trials = shards.map((s) => s.summary.trials.planned);
    expect(trials.reduce((a, b) => a + b)).toBe(full.summary.trials.planned);
    expect(Math.max(...trials) - Math.min(...trials)).toBeLessThanOrEqual(6);
    shards.forEach((s, i) => expect(s.run.shard).toMatchObject({ index: i + 1, total: 3, plan: { cases: 14, trials: full.summary.trials.planned } }));
  });

  it('merging the three gives the unsharded run: case verdicts in plan order, summary and exit code', async () => {
    expect(fullCode).toBe(1);
    // The real binary's exit code.
    const r = await runCli(['merge', 's3.json', 's1.json', 's2.json', '-o', 'merged.json', '--exit-code'], { cwd: dir });
    expect(r.code, r.stdout + r.stderr).toBe(fullCode);
    const merged = read(out('merged.json'));
    expect(merged.cases.map(verdictOf)).toEqual(full.cases.map(verdictOf));
    expect(summaryOf(merged)).toEqual(summaryOf(full));
    expect(merged.summary.cases.failed).toBe(2);
    expect(merged.run.shard).toBeUndefined();
    // Without --exit-code a merge that succeeded exits 0.
    const plain = await runCliInProcess(['merge', 's1.json', 's2.json', 's3.json', '-o', 'merged2.json'], { cwd: dir });
    expect(plain.code, plain.stderr).toBe(0);
  });

  it('a run gate is recomputed over the whole plan, not taken from a shard', async () => {
    const runs = await Promise.all([
      runCliInProcess(['run', '--silent', '--min-pass-rate', '0.95', '--json', 'g-full.json'], { cwd: dir }),
      ...[1, 2, 3].map((k) => runCliInProcess(['run', '--silent', '--min-pass-rate', '0.95', '--shard', `${k}/3`, '--json', `g${k}.json`], { cwd: dir })),
    ]);
    const m = await runCliInProcess(['merge', 'g1.json', 'g2.json', 'g3.json', '-o', 'g-merged.json', '--exit-code'], { cwd: dir });
    expect(m.code).toBe(runs[0].code);
    expect(read(out('g-merged.json')).summary.failures).toEqual(read(out('g-full.json')).summary.failures);
    expect(read(out('g-merged.json')).summary.failures.some((f) => f.includes('--min-pass-rate'))).toBe(true);
  }, 60_000);

  it('two copies of one shard: exit 2 naming the overlap, nothing written', async () => {
    copyFileSync(out('s1.json'), out('s1-copy.json'));
    const r = await runCliInProcess(['merge', 's1.json', 's1-copy.json', 's2.json', 's3.json', '-o', 'bad.json'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('shard 1/3 appears twice: s1.json and s1-copy.json');
    expect(r.stderr).not.toMatch(STACK_FRAME);
    expect(() => readFileSync(out('bad.json'))).toThrow();
  });

  it('two of three shards: exit 2 naming the missing one', async () => {
    const r = await runCliInProcess(['merge', 's1.json', 's3.json', '-o', 'bad.json'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('missing shard 2/3 (got 1/3 from s1.json, 3/3 from s3.json)');
  });

  it('refuses mixed schema versions, different settings and a file of an unsharded run', async () => {
    const v2 = JSON.parse(readFileSync(out('s2.json'), 'utf8')) as { schemaVersion: number };
    v2.schemaVersion = 2;
    writeFileSync(out('s2-v2.json'), JSON.stringify(v2));
    const versions = await runCliInProcess(['merge', 's1.json', 's2-v2.json', 's3.json', '-o', 'bad.json'], { cwd: dir });
    expect(versions.code).toBe(2);
    expect(versions.stderr).toContain('mixed schema versions: s1.json has 1, s2-v2.json has 2, s3.json has 1');

    const strict = await runCliInProcess(['run', '--silent', '--strict', '--shard', '3/3', '--json', 's3-strict.json'], { cwd: dir });
    expect(strict.code === 0 || strict.code === 1, strict.stderr).toBe(true);
    const config = await runCliInProcess(['merge', 's1.json', 's2.json', 's3-strict.json', '-o', 'bad.json'], { cwd: dir });
    expect(config.code).toBe(2);
    expect(config.stderr).toMatch(/s1\.json and s3-strict\.json ran with different settings \(config fingerprint \w+ vs \w+\)/);

    const unsharded = await runCliInProcess(['merge', 'full.json', 's2.json', '-o', 'bad.json'], { cwd: dir });
    expect(unsharded.code).toBe(2);
    expect(unsharded.stderr).toContain("full.json is not a shard's results");
  }, 60_000);

  it('list --shard shows the part run --shard runs', async () => {
    const r = await runCliInProcess(['list', '--shard', '2/3'], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    const listed = r.stdout.split('\n').flatMap((l) => (/^\S+\/c\d+ /.test(l) ? [l.split(' ')[0]] : []));
    expect(listed).toEqual(shards[1]!.cases.map(key));
    expect(r.stdout).toContain(`(shard 2/3 of 14 cases, ${full.summary.trials.planned} trials)`);
  });

  it('a bad --shard is exit 2 before anything runs', async () => {
    for (const bad of ['0/3', '4/3', '1/0', 'two']) {
      const r = await runCliInProcess(['run', '--shard', bad], { cwd: dir });
      expect(r.code, bad).toBe(2);
      expect(r.stderr).toContain(`--shard ${bad}: expected k/n`);
    }
  });
});
