/**
 * Agent effect and judge effect apart (`--rejudge`), through the built CLI (`main` in-process) with a
 * fake OpenAI judge on 127.0.0.1 reached by the real SDK. The fake scores a good reply 0.9 when asked
 * as `judge-a` and 0.7 as `judge-b`, a broken reply 0.1 from either: case `strict` (threshold 0.8)
 * passes under judge A and misses under judge B; case `lenient` (threshold 0.5) passes under both
 * unless the agent breaks. The baseline is judged by A; the head runs judge with B (`--judge`).
 * Judged assertions are soft by default, so a miss makes a case `scored`, which fails no run: the
 * exit code is the comparison's.
 */
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { removeTempDirs, stripAnsi } from '../support/cli.js';
import { runCliInProcess } from '../support/cli-in-process.js';
import { writeProject } from '../support/temp-project.js';
import { startFakeOpenAI } from '../support/fake-openai.js';
import type { FakeProvider } from '../support/fake-server.js';
import { fisherDropP } from '../../src/stats/fisher.js';
import { ResultsSchema } from '../../src/core/results-schema.js';

let fakes: FakeProvider[] = [];
afterEach(async () => {
  await Promise.all(fakes.map((f) => f.close()));
  fakes = [];
});
afterAll(removeTempDirs);

const GOOD = 'Parcel A1 left the depot this morning.';
const CONFIG = `import { writeFileSync } from 'node:fs';
export default {
  targets: {
    agent() {
      if (process.env.MARKER) writeFileSync(process.env.MARKER, 'called');
      return process.env.BROKEN ? 'Sorry, I cannot help with that.' : ${JSON.stringify(GOOD)};
    },
  },
  judge: 'openai:judge-a',
  concurrency: 1,
};
`;
const EVAL = `suite: orders
target: agent
repeat: 5
cases:
  - id: strict
    input: Where is parcel A1?
    assert: [{ type: judge, criteria: Tells the customer where the parcel is., threshold: 0.8 }]
  - id: lenient
    input: Where is my parcel A1?
    assert: [{ type: judge, criteria: Tells the customer where the parcel is., threshold: 0.5 }]
`;
const P_5_TO_0 = `p = ${fisherDropP(5, 5, 0, 5).toFixed(3)}`; // 1/252 = 0.004

/** The fake judge: lower scores when the request names judge-b; a reply without the parcel's whereabouts fails under either. */
async function fakeJudge(): Promise<FakeProvider> {
  const fake = await startFakeOpenAI({
    script: (body: { model: string; messages: unknown }) => {
      const good = JSON.stringify(body.messages).includes('left the depot');
      const score = !good ? 0.1 : body.model === 'judge-b' ? 0.7 : 0.9;
      return { json: { score, reason: `scored by ${body.model}`, evidence: [] } };
    },
  });
  fakes.push(fake);
  return fake;
}

async function project(config = CONFIG): Promise<{ dir: string; env: Record<string, string>; fake: FakeProvider }> {
  const fake = await fakeJudge();
  const dir = writeProject({ 'evals.config.mjs': config, 'evals/orders.eval.yaml': EVAL });
  const env = { OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: 'sk-test-judge-key' };
  // The baseline: judge A passes both cases 5/5.
  const base = await runCliInProcess(['run', '--no-early-stop', '--json', 'base.json'], { cwd: dir, env });
  expect(base.code, base.stdout + base.stderr).toBe(0);
  return { dir, env, fake };
}

const results = (dir: string, file: string) => ResultsSchema.parse(JSON.parse(readFileSync(join(dir, file), 'utf8')));

describe('run --baseline --judge <new> --rejudge', () => {
  it('a stricter new judge: the judge effect is shown with its p, the agent effect is none, exit 0', async () => {
    const { dir, env } = await project();
    const r = await runCliInProcess(['run', '--baseline', 'base.json', '--judge', 'openai:judge-b', '--rejudge', '--json', 'head.json'], { cwd: dir, env });
    const out = stripAnsi(r.stdout);
    expect(r.code, out + r.stderr).toBe(0);
    expect(out).toMatch(/agent effect: 0 regressed \(0 counted, max 0\), 0 improved, 2 unchanged; judge effect \(baseline re-judged by openai:judge-b\): 2 lower, 0 higher/);
    // The re-judge's own judge spend is said, since the run's usage line does not hold it.
    expect(r.stderr).toMatch(/re-judged base\.json: 2 cases \(0 cases could not be\), judge [1-9]\d* calls? /);
    expect(out).toContain(`orders/strict  agent effect: none (0/5 → 0/5); judge effect: 5/5 → 0/5 re-judged, ${P_5_TO_0} (head's judge stricter`);
    const { comparison } = results(dir, 'head.json');
    expect(comparison).toMatchObject({ failed: false, counted: 0, rejudge: { judges: ['openai:judge-b'], lower: 2, higher: 0 } });
    // Both cases' judge effects are judge B's lower scores; neither is the agent's.
    expect(comparison!.cases.map((c) => [c.key, c.kind, c.counted, c.judgeEffect?.direction, c.judgeEffect?.recorded.passed, c.judgeEffect?.rejudged.passed])).toEqual([
      ['orders/lenient', 'unchanged', undefined, 'lower', 5, 5],
      ['orders/strict', 'unchanged', undefined, 'lower', 5, 0],
    ]);
  });

  it('the same with the agent really broken: the agent effect counts, exit 1', async () => {
    const { dir, env } = await project();
    const r = await runCliInProcess(['run', '--baseline', 'base.json', '--judge', 'openai:judge-b', '--rejudge', '--json', 'head.json'], { cwd: dir, env: { ...env, BROKEN: '1' } });
    const out = stripAnsi(r.stdout);
    expect(r.code, out + r.stderr).toBe(1);
    expect(out).toContain(`regressed  orders/lenient  agent effect: 5/5 → 0/5, ${P_5_TO_0}`);
    // Under judge B the broken replies also score lower on the strict case (0.70 → 0.10 on each trial, so the
    // rank-sum p of the scores: 1/252): the agent's doing too.
    expect(out).toContain('regressed  orders/strict  agent effect: 0/5 → 0/5, p = 0.004 (score 0.70 → 0.10)');
    expect(out).toMatch(/2 regressions against baseline base\.json/);
    const { comparison } = results(dir, 'head.json');
    expect(comparison).toMatchObject({ failed: true, counted: 2 });
    expect(comparison!.cases.find((c) => c.key === 'orders/lenient')).toMatchObject({ kind: 'regressed', counted: true, base: { passed: 5 }, head: { passed: 0 } });
    // The strict case's 5/5 → 0/5 is the judge's, shown apart and not in the agent effect's p.
    expect(comparison!.cases.find((c) => c.key === 'orders/strict')).toMatchObject({
      kind: 'regressed',
      base: { passed: 0 },
      head: { passed: 0 },
      judgeEffect: { direction: 'lower', recorded: { passed: 5 }, rejudged: { passed: 0 } },
    });
  });
});

describe('compare base.json head.json --rejudge', () => {
  it('shows both effects in the terminal and in --json output', async () => {
    const { dir, env } = await project();
    const head = await runCliInProcess(['run', '--no-early-stop', '--judge', 'openai:judge-b', '--json', 'head.json'], { cwd: dir, env });
    expect(head.code, head.stdout + head.stderr).toBe(0);
    const r = await runCliInProcess(['compare', 'base.json', 'head.json', '--rejudge', '--judge', 'openai:judge-b'], { cwd: dir, env });
    const out = stripAnsi(r.stdout);
    expect(r.code, out + r.stderr).toBe(0);
    expect(out).toContain(`orders/strict  agent effect: none (0/5 → 0/5); judge effect: 5/5 → 0/5 re-judged, ${P_5_TO_0}`);
    expect(out).toMatch(/judge effect \(baseline re-judged by openai:judge-b\): 2 lower, 0 higher/);

    const json = await runCliInProcess(['compare', 'base.json', 'head.json', '--rejudge', '--judge', 'openai:judge-b', '--json'], { cwd: dir, env });
    expect(json.code, json.stdout + json.stderr).toBe(0);
    const comparison = ResultsSchema.shape.comparison.parse(JSON.parse(json.stdout));
    expect(comparison).toMatchObject({ failed: false, rejudge: { judges: ['openai:judge-b'], lower: 2, higher: 0 } });
    const strict = comparison!.cases.find((c) => c.key === 'orders/strict');
    expect(strict).toMatchObject({ kind: 'unchanged', judgeEffect: { direction: 'lower' } });
    expect(strict!.judgeEffect!.pValue).toBeCloseTo(1 / 252, 10);
  });
});

describe('--rejudge: what it needs and what it warns about', () => {
  it("compare re-judges with the config's judges by default; a head judged by others is judge changed, not counted", async () => {
    const { dir, env } = await project();
    const head = await runCliInProcess(['run', '--no-early-stop', '--judge', 'openai:judge-b', '--json', 'head.json'], { cwd: dir, env });
    expect(head.code, head.stdout + head.stderr).toBe(0);
    // The config's judge is A: the baseline re-judged by A is as recorded, and head's B verdicts are not comparable with it.
    const r = await runCliInProcess(['compare', 'base.json', 'head.json', '--rejudge'], { cwd: dir, env });
    const out = stripAnsi(r.stdout);
    expect(r.code, out + r.stderr).toBe(0);
    expect(out).toMatch(/judge effect \(baseline re-judged by openai:judge-a\): 0 lower, 0 higher/);
    expect(out).toMatch(/judge changed\s+orders\/strict\s+agent effect: 5\/5 → 0\/5 \(judge openai:judge-a → openai:judge-b\); judge effect: none \(5\/5 → 5\/5 re-judged\)/);
    expect(out).toContain(
      "warning 2 cases were judged in head by another judge or criterion than the one that re-judged the baseline: not compared (re-judge with head's judges: `--judge`, or the config head ran with)",
    );
  });

  it('--rejudge without --baseline, and compare --judge without --rejudge, are exit 2 before anything runs', async () => {
    const { dir, env, fake } = await project();
    const asked = fake.requests.length;
    const run = await runCliInProcess(['run', '--rejudge'], { cwd: dir, env });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--rejudge needs --baseline');
    const cmp = await runCliInProcess(['compare', 'base.json', 'base.json', '--judge', 'openai:judge-b'], { cwd: dir, env });
    expect(cmp.code).toBe(2);
    expect(cmp.stderr).toContain('--judge needs --rejudge');
    expect(fake.requests.length).toBe(asked);
  });

  it('a baseline none of whose cases can be re-judged (both edited since) is exit 2 before any target runs', async () => {
    const { dir, env } = await project();
    writeFileSync(join(dir, 'evals/orders.eval.yaml'), EVAL.replaceAll('parcel A1?', 'parcel B2?'));
    const marker = join(dir, 'marker.txt');
    const r = await runCliInProcess(['run', '--baseline', 'base.json', '--rejudge'], { cwd: dir, env: { ...env, MARKER: marker } });
    expect(r.code, r.stdout + r.stderr).toBe(2);
    expect(r.stderr).toContain('nothing to re-judge in base.json');
    expect(r.stderr).toContain('orders/strict: edited since the run');
    expect(existsSync(marker)).toBe(false);
  });

  it('under trace: safe, a case whose raw trace is gone from the run folder is listed as cannot re-judge, never counted', async () => {
    // The strict case looks the parcel up with a tool: under `safe` its results hold the tool data as digests.
    const toolConfig = CONFIG.replace(
      'agent() {',
      `async agent(input, ctx) {
      if (input === 'Where is parcel A1?') await ctx.tool('lookup', { parcel: 'A1' }, () => ({ at: 'depot' }));`,
    );
    const { dir, env } = await project(toolConfig);
    // Re-judgeable while the baseline's run folder keeps its raw trials.
    const kept = await runCliInProcess(['run', '--baseline', 'base.json', '--judge', 'openai:judge-b', '--rejudge'], { cwd: dir, env });
    expect(kept.code, kept.stdout + kept.stderr).toBe(0);
    expect(stripAnsi(kept.stdout)).toContain('orders/strict  agent effect: none (0/5 → 0/5); judge effect: 5/5 → 0/5 re-judged');
    rmSync(join(dir, '.agent-evals', 'runs'), { recursive: true });
    const r = await runCliInProcess(['run', '--baseline', 'base.json', '--judge', 'openai:judge-b', '--rejudge', '--json', 'head.json'], { cwd: dir, env });
    const out = stripAnsi(r.stdout);
    // 5/5 → 0/5 as recorded, but the drop cannot be told apart from the judge's: listed, not counted.
    expect(r.code, out + r.stderr).toBe(0);
    expect(out).toMatch(/could not compare: cannot re-judge\s+orders\/strict\s+5\/5 → 0\/5 \(cannot re-judge: recorded under `trace: safe` and the run folder's raw traces are gone/);
    expect(r.stderr).toContain('re-judged base.json: 1 case (1 case could not be)');
    const { comparison } = results(dir, 'head.json');
    expect(comparison!.counts).toMatchObject({ 'cannot-rejudge': 1, regressed: 0 });
    expect(comparison!.cases.find((c) => c.key === 'orders/strict')).toMatchObject({ kind: 'cannot-rejudge' });
  });
});
