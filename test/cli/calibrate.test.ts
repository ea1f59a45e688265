/**
 * `agent-evals calibrate` through the built CLI's `main` in-process (exit 1 also from the spawned
 * binary) against a fake OpenAI judge server (the real SDK client) that answers each row with a scripted score. The test works out κ, accuracy, MAE and
 * Spearman by hand for small tables (one with κ = 1, one with κ = 0) and finds the best threshold by
 * brute force, then checks the command's terminal output and JSON report against them.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it, type TestContext } from 'vitest';
import { REPO_ROOT, removeTempDirs, runCli, tempDir, type CliResult } from '../support/cli.js';
import { runCliInProcess } from '../support/cli-in-process.js';
import { startFakeOpenAI } from '../support/fake-openai.js';
import type { FakeProvider } from '../support/fake-server.js';
import { CalibrationSchema } from '../../src/judges/calibration-schema.js';

afterAll(removeTempDirs);

interface Row {
  /** Marker in the output text: how the fake server knows which row it judges. */
  tag: string;
  /** What the fake judge answers, on the 1..10 scale. */
  judge: number;
  humanScore?: number;
  humanVerdict?: 'pass' | 'fail';
}

/** A fake judge that answers each row's scripted score; it finds the row by its tag in the prompt. */
async function fakeJudge(t: TestContext, rows: Row[]): Promise<FakeProvider> {
  const fake = await startFakeOpenAI({
    script: (body: { messages: Array<{ content: string }> }) => {
      const prompt = body.messages.map((m) => m.content).join('\n');
      const row = rows.find((r) => prompt.includes(`[${r.tag}]`));
      return row ? { json: { score: row.judge, reason: `scripted reason for ${row.tag}`, evidence: [] } } : { status: 400, message: 'no row tag in the prompt' };
    },
  });
  t.onTestFinished(() => fake.close());
  return fake;
}

function project(rows: Row[], extra: string[] = []): { dir: string; outDir: string } {
  const dir = tempDir('agent-evals-calibrate-');
  const outDir = join(dir, 'out');
  writeFileSync(join(dir, 'evals.config.mjs'), `export default { outputDir: ${JSON.stringify(outDir)} };\n`);
  const lines = rows.map((r) => JSON.stringify({ id: r.tag, input: 'Where is my order?', output: `[${r.tag}] Your order ships tomorrow.`, humanScore: r.humanScore, humanVerdict: r.humanVerdict }));
  writeFileSync(join(dir, 'labels.jsonl'), [...lines, ...extra].join('\n') + '\n');
  return { dir, outDir };
}

async function calibrate(dir: string, fake: FakeProvider, args: string[] = [], run = runCliInProcess): Promise<CliResult> {
  return run(['calibrate', 'labels.jsonl', '--judge', 'openai:gpt-4.1-mini', '--criteria', 'Answers the question accurately.', '--scale', '10', ...args], {
    cwd: dir,
    env: { OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: 'test-key', EVALS_JUDGE_PROVIDER: undefined, EVALS_JUDGE_MODEL: undefined },
    timeoutMs: 60_000,
  });
}

const explain = (r: CliResult) => `exit ${r.code}\n--- stdout\n${r.stdout}\n--- stderr\n${r.stderr}`;

// ---- the test's own arithmetic, independent of src/stats ----
function kappaByHand(judge: boolean[], human: boolean[]): number {
  const n = judge.length;
  const agree = judge.filter((j, i) => j === human[i]).length / n;
  const jp = judge.filter(Boolean).length / n;
  const hp = human.filter(Boolean).length / n;
  const chance = jp * hp + (1 - jp) * (1 - hp);
  return (agree - chance) / (1 - chance);
}

interface Report {
  judge: string;
  rows: number;
  judged: number;
  skippedLines: number[];
  scores: { exactAgreement: number; withinTolerance: number; tolerance: number; meanAbsoluteError: number; spearman: number } | null;
  verdicts: { accuracy: number; kappa: number; truePositiveRate: number; trueNegativeRate: number; confusionMatrix: Record<string, number> } | null;
  thresholdAdvice: { threshold: number; kappa: number } | null;
  worstDisagreements: Array<{ id: string; reason: string }>;
  usage: { calls: number };
  cachedRows: number;
}

/** The written report, checked against the published schema. */
function readReport(path: string): Report {
  const parsed = CalibrationSchema.safeParse(JSON.parse(readFileSync(path, 'utf8')));
  expect(parsed.success ? [] : parsed.error.issues.slice(0, 5), `${path} fails CalibrationSchema`).toEqual([]);
  return parsed.data as Report;
}
const report = (outDir: string): Report => readReport(join(outDir, 'calibration.json'));

/** Calibrates `rows` against a fake judge answering their scripted scores; the command must succeed. */
async function calibrated(t: TestContext, rows: Row[], extra: string[] = []): Promise<{ res: CliResult; r: Report; fake: FakeProvider }> {
  const fake = await fakeJudge(t, rows);
  const { dir, outDir } = project(rows, extra);
  const res = await calibrate(dir, fake);
  expect(res.code, explain(res)).toBe(0);
  return { res, r: report(outDir), fake };
}

describe.concurrent('agent-evals calibrate against a fake judge server', () => {
  it('perfect agreement: κ = 1, accuracy 1, MAE 0.75, Spearman 1', async (t) => {
    const rows: Row[] = [
      { tag: 'r1', judge: 9, humanScore: 10, humanVerdict: 'pass' },
      { tag: 'r2', judge: 8, humanScore: 7, humanVerdict: 'pass' },
      { tag: 'r3', judge: 3, humanScore: 3, humanVerdict: 'fail' },
      { tag: 'r4', judge: 2, humanScore: 1, humanVerdict: 'fail' },
    ];
    const { res, r, fake } = await calibrated(t, rows);
    expect(fake.count).toBe(4);
    // At the default threshold 0.7 the judge passes 9 and 8 and fails 3 and 2: exactly the humans' verdicts.
    expect(r.verdicts).toMatchObject({ accuracy: 1, kappa: 1, truePositiveRate: 1, trueNegativeRate: 1, confusionMatrix: { truePositive: 2, falsePositive: 0, falseNegative: 0, trueNegative: 2 } });
    // |9−10| + |8−7| + |3−3| + |2−1| = 3 over 4 rows; one exact; all within ±1; same order on both sides.
    expect(r.scores).toEqual({ rows: 4, exactAgreement: 0.25, tolerance: 1, withinTolerance: 1, meanAbsoluteError: 0.75, spearman: 1 });
    expect(r.judge).toBe('openai:gpt-4.1-mini');
    expect(res.stdout).toMatch(/Verdicts \(4 rows\): accuracy 100\.0%, κ 1,/);
    expect(res.stdout).toMatch(/MAE 0\.75, Spearman 1/);
  });

  it('agreement no better than chance: κ = 0 with accuracy 0.5; MAE 2.25, Spearman 0.4', async (t) => {
    const rows: Row[] = [
      { tag: 'r1', judge: 8, humanScore: 8, humanVerdict: 'pass' },
      { tag: 'r2', judge: 3, humanScore: 7, humanVerdict: 'pass' },
      { tag: 'r3', judge: 9, humanScore: 4, humanVerdict: 'fail' },
      { tag: 'r4', judge: 2, humanScore: 2, humanVerdict: 'fail' },
    ];
    const { res, r } = await calibrated(t, rows);
    // Judge P F P F against humans P P F F: p_o = .5, both pass half so p_e = .5, κ = 0.
    expect(r.verdicts?.accuracy).toBe(0.5);
    expect(r.verdicts?.kappa).toBe(0);
    expect(r.verdicts?.truePositiveRate).toBe(0.5);
    // |diffs| 0, 4, 5, 0: MAE 9/4; exact and within ±1 both 2/4.
    // Ranks (no ties) judge 3 2 4 1, human 4 3 2 1: Σd² = 1 + 1 + 4 + 0 = 6, ρ = 1 − 6·6/(4·15) = 0.4.
    expect(r.scores?.meanAbsoluteError).toBe(2.25);
    expect(r.scores?.exactAgreement).toBe(0.5);
    expect(r.scores?.withinTolerance).toBe(0.5);
    expect(r.scores?.spearman).toBeCloseTo(0.4, 12);
    // The worst disagreement first: r3 (verdict differs, 9 against 4), with the judge's reason.
    expect(r.worstDisagreements[0]).toMatchObject({ id: 'r3', reason: 'scripted reason for r3' });
    expect(res.stdout).toContain('κ 0,');
  });

  it('recommends the threshold a brute-force search finds, with its κ; skips an unlabelled row naming its line', async (t) => {
    const verdictOnly = (tag: string, judge: number, human: 'pass' | 'fail'): Row => ({ tag, judge, humanVerdict: human });
    const rows: Row[] = [
      verdictOnly('r1', 9, 'pass'),
      verdictOnly('r2', 8, 'pass'),
      verdictOnly('r3', 6, 'pass'),
      verdictOnly('r4', 6, 'pass'),
      verdictOnly('r5', 5, 'fail'),
      verdictOnly('r6', 7, 'fail'),
      verdictOnly('r7', 4, 'fail'),
      verdictOnly('r8', 3, 'fail'),
      verdictOnly('r9', 6, 'fail'),
      verdictOnly('r10', 2, 'fail'),
    ];
    const { res, r } = await calibrated(t, rows, [JSON.stringify({ id: 'unlabelled', output: 'no label here' })]);
    expect(res.stderr).toMatch(/labels\.jsonl:11: no humanScore or humanVerdict; row skipped/);
    expect([r.rows, r.judged, r.skippedLines]).toEqual([10, 10, [11]]);
    expect(r.scores).toBeNull();

    const human = rows.map((row) => row.humanVerdict === 'pass');
    const passesAt = (t01: number) => rows.map((row) => row.judge / 10 >= t01 - 1e-12);
    // Brute force over every threshold from 0 to 1 in steps of 0.01.
    let best = { kappa: -Infinity, passes: [] as boolean[] };
    for (let i = 0; i <= 100; i++) {
      const passes = passesAt(i / 100);
      if (passes.every(Boolean) || !passes.some(Boolean)) continue;
      const kappa = kappaByHand(passes, human);
      if (kappa > best.kappa + 1e-12) best = { kappa, passes };
    }
    // κ at the default 0.7, for the report's own line.
    expect(r.verdicts?.kappa).toBeCloseTo(kappaByHand(passesAt(0.7), human), 12);
    expect(r.verdicts?.accuracy).toBe(0.7);
    expect(r.thresholdAdvice?.kappa).toBeCloseTo(best.kappa, 12);
    // The advised threshold splits the rows exactly as the brute-force best does (0.6: κ = .32/.52).
    expect(passesAt(r.thresholdAdvice!.threshold)).toEqual(best.passes);
    expect(r.thresholdAdvice?.threshold).toBe(0.6);
    expect(best.kappa).toBeCloseTo(0.32 / 0.52, 12);
    expect(res.stdout).toMatch(/Threshold advice: 0\.6 \(6 on the 10-point scale\) gives κ 0\.615/);
  });

  it('a second calibration is answered from the judge cache: no new calls', async (t) => {
    const rows: Row[] = [
      { tag: 'r1', judge: 9, humanVerdict: 'pass' },
      { tag: 'r2', judge: 2, humanVerdict: 'fail' },
    ];
    const fake = await fakeJudge(t, rows);
    const { dir, outDir } = project(rows);
    expect((await calibrate(dir, fake)).code).toBe(0);
    expect([fake.count, report(outDir).usage.calls]).toEqual([2, 2]);
    const again = await calibrate(dir, fake);
    expect(again.code, explain(again)).toBe(0);
    expect(fake.count).toBe(2);
    expect(report(outDir).cachedRows).toBe(2);
    expect(again.stdout).toContain('2 answered from the cache');
  });

  it('the output reaches the judge inside the untrusted block', async (t) => {
    const rows: Row[] = [{ tag: 'r1', judge: 9, humanVerdict: 'pass' }];
    const fake = await fakeJudge(t, rows);
    const { dir } = project(rows);
    expect((await calibrate(dir, fake, ['--no-cache'])).code).toBe(0);
    const prompt = (fake.requests[0]!.body as { messages: Array<{ content: string }> }).messages.map((m) => m.content).join('\n');
    const at = prompt.indexOf('[r1] Your order ships tomorrow.');
    // The nearest block tag before the output opens the block, and one after it closes it.
    const before = prompt.slice(0, at);
    expect(at).toBeGreaterThan(-1);
    expect(before.lastIndexOf('<untrusted-target-trace')).toBeGreaterThan(before.lastIndexOf('</untrusted-target-trace'));
    expect(prompt.indexOf('</untrusted-target-trace', at)).toBeGreaterThan(at);
  });

  it('a file with no usable row exits 2 naming the file and the lines, before any judgment', async (t) => {
    const fake = await fakeJudge(t, []);
    const { dir, outDir } = project([], [JSON.stringify({ output: 'a' }), JSON.stringify({ output: 'b' })]);
    const res = await calibrate(dir, fake);
    expect(res.code, explain(res)).toBe(2);
    expect(res.stderr).toContain('labels.jsonl: no usable row: all 2 rows (lines 1, 2) lack humanScore and humanVerdict');
    expect(res.stderr).not.toMatch(/\n\s+at /);
    expect(fake.count).toBe(0);
    expect(existsSync(join(outDir, 'calibration.json'))).toBe(false);
  });

  it('a human score off the scale is bad input with file, line and field', async (t) => {
    const fake = await fakeJudge(t, []);
    const { dir } = project([{ tag: 'r1', judge: 5, humanScore: 7, humanVerdict: 'pass' }]);
    const res = await calibrate(dir, fake, ['--scale', '1']);
    expect(res.code, explain(res)).toBe(2);
    expect(res.stderr).toContain('labels.jsonl:1: humanScore: 7 is outside the scale 0..1 (pass --scale 10 for 10-point scores)');
    expect(fake.count).toBe(0);
  });

  it('two rows with one id are bad input naming the file, the line and the id, before any judgment', async (t) => {
    const fake = await fakeJudge(t, []);
    const rows: Row[] = [
      { tag: 'r1', judge: 5, humanScore: 7, humanVerdict: 'pass' },
      { tag: 'r2', judge: 5, humanScore: 3, humanVerdict: 'fail' },
      { tag: 'r1', judge: 5, humanScore: 2, humanVerdict: 'fail' },
    ];
    const res = await calibrate(project(rows).dir, fake);
    expect(res.code, explain(res)).toBe(2);
    expect(res.stderr).toContain('labels.jsonl:3: id: duplicate id "r1" (first at line 1): each row needs its own id');
    expect(fake.count).toBe(0);
  });

  it("the example labelled set calibrates offline with the config's named fake judge, and is no eval file", async () => {
    const out = join(tempDir('agent-evals-calibrate-'), 'calibration.json');
    const args = ['calibrate', 'evals/calibration/labels.jsonl', '--judge', 'calibration-fake', '--scale', '10', '--criteria', 'Answers accurately and politely.', '--no-cache', '--output', out];
    const res = await runCliInProcess(args, { cwd: REPO_ROOT, env: { EVALS_JUDGE_PROVIDER: undefined, EVALS_JUDGE_MODEL: undefined }, timeoutMs: 60_000 });
    expect(res.code, explain(res)).toBe(0);
    const r = readReport(out);
    expect([r.judge, r.rows, r.judged]).toEqual(['fake:fixtures', 30, 30]);
    // The fixtures are scores, not the constant 1 of an unmatched fake judge: the judge disagrees somewhere.
    expect(r.verdicts?.kappa).toBeGreaterThan(0);
    expect(r.verdicts?.accuracy).toBeLessThan(1);
    const list = await runCliInProcess(['list', '--json'], { cwd: REPO_ROOT, timeoutMs: 60_000 });
    expect(list.code, explain(list)).toBe(0);
    expect(list.stdout).not.toContain('calibration');
  });

  it('a row whose judgment fails counts in no statistic; when every judgment fails the command exits 1', async (t) => {
    const rows: Row[] = [
      { tag: 'r1', judge: 9, humanVerdict: 'pass' },
      { tag: 'r2', judge: 2, humanVerdict: 'fail' },
      { tag: 'r3', judge: 9, humanVerdict: 'fail' },
    ];
    // r3 is refused (400 is not retried): without it the judge agrees with every verdict.
    const fake = await startFakeOpenAI({
      script: (body: { messages: Array<{ content: string }> }) => {
        const prompt = body.messages.map((m) => m.content).join('\n');
        const row = rows.find((r) => prompt.includes(`[${r.tag}]`))!;
        return row.tag === 'r3' ? { status: 400, message: 'refused' } : { json: { score: row.judge, reason: 'ok', evidence: [] } };
      },
    });
    t.onTestFinished(() => fake.close());
    const { dir, outDir } = project(rows);
    const res = await calibrate(dir, fake);
    expect(res.code, explain(res)).toBe(0);
    const r = report(outDir);
    expect([r.rows, r.judged]).toEqual([3, 2]);
    expect(r.verdicts).toMatchObject({ rows: 2, accuracy: 1, kappa: 1 });
    expect(res.stdout).toMatch(/Judge errors: 1 row not counted \(line 3: /);

    const allFail = await startFakeOpenAI({ script: () => ({ status: 400, message: 'refused' }) });
    t.onTestFinished(() => allFail.close());
    // The real binary's exit code.
    const failed = await calibrate(dir, allFail, ['--no-cache'], runCli);
    expect(failed.code, explain(failed)).toBe(1);
    expect(failed.stderr).toContain('every judgment failed');
  });

  it('flags that do not fit, a row without the reference its type needs, and a missing key are exit 2 before any judgment', async (t) => {
    const fake = await fakeJudge(t, []);
    const { dir } = project([{ tag: 'r1', judge: 5, humanVerdict: 'pass' }]);
    const cases: Array<[string[], Record<string, string | undefined>, string]> = [
      [['--type', 'pairwise'], {}, '--type pairwise: expected one of judge, judgeAgainst, factuality, closedQa, sql'],
      [['--type', 'factuality'], {}, 'labels.jsonl:1: reference: --type factuality grades against a reference'],
      [['--criteria', 'x'], { OPENAI_API_KEY: undefined }, 'OPENAI_API_KEY'],
    ];
    for (const [args, env, message] of cases) {
      const res = await runCliInProcess(['calibrate', 'labels.jsonl', '--judge', 'openai:gpt-4.1-mini', ...args], {
        cwd: dir,
        env: { OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: 'k', ...env },
        timeoutMs: 60_000,
      });
      expect(res.code, explain(res)).toBe(2);
      expect(res.stderr).toContain(message);
    }
    expect(fake.count).toBe(0);
  });

  it("a judge's reason is shown, never obeyed, and never carries a secret of the environment", async (t) => {
    const secret = 'sk-calibrate-secret-0042';
    const fake = await startFakeOpenAI({ script: () => ({ json: { score: 0.2, reason: `leaked ${secret} \u001b[2Jcleared`, evidence: [] } }) });
    t.onTestFinished(() => fake.close());
    const { dir, outDir } = project([{ tag: 'r1', judge: 2, humanVerdict: 'pass' }]);
    const res = await runCliInProcess(['calibrate', 'labels.jsonl', '--judge', 'openai:gpt-4.1-mini', '--criteria', 'x'], {
      cwd: dir,
      env: { OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: 'test-key', SUPPORT_API_KEY: secret },
      timeoutMs: 60_000,
    });
    expect(res.code, explain(res)).toBe(0);
    const written = readFileSync(join(outDir, 'calibration.json'), 'utf8');
    expect(res.stdout + written).not.toContain(secret);
    // The row is a disagreement (judge fail, human pass): its reason is on the terminal, escape shown as text.
    expect(res.stdout).toContain('\\x1b[2Jcleared');
    expect(res.stdout).not.toContain('\u001b');
  });
});
