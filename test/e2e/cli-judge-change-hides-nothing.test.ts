/**
 * A judge change never hides a deterministic break (the built CLI's `main`, in-process, with a fake
 * OpenAI judge on 127.0.0.1 reached by the real SDK). The baseline is judged by `judge-a` (the
 * config's); the head run is judged by `judge-b` (`--judge`) and, with BROKEN set, its agent stops
 * saying "shipped", so the `contains` gate of `support/order-status` fails and its judge is never
 * asked. `support/greeting` never breaks: the only thing that moves it is judge B's lower score.
 * Without the per-assertion rule the broken case read `judge changed` (not counted) and `run
 * --baseline` / `compare --rejudge` exited 0.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { removeTempDirs, stripAnsi } from '../support/cli.js';
import { runCliInProcess } from '../support/cli-in-process.js';
import { writeProject } from '../support/temp-project.js';
import { startFakeOpenAI } from '../support/fake-openai.js';
import type { FakeProvider } from '../support/fake-server.js';
import { ResultsSchema } from '../../src/core/results-schema.js';

let fake: FakeProvider;
beforeAll(async () => {
  // Judge A scores every reply 0.9, judge B 0.7: the greeting's threshold 0.8 passes under A only.
  fake = await startFakeOpenAI({ script: (body: { model: string }) => ({ json: { score: body.model === 'judge-b' ? 0.7 : 0.9, reason: `scored by ${body.model}`, evidence: [] } }) });
});
afterAll(async () => {
  await fake.close();
  removeTempDirs();
});

const CONFIG = `export default {
  targets: {
    agent(input) {
      if (input.includes('order')) return process.env.BROKEN ? 'I am not sure where it is.' : 'Your order A1 has shipped.';
      return 'Hello! How can I help you today?';
    },
  },
  judge: 'openai:judge-a',
  concurrency: 1,
};
`;
const EVAL = `suite: support
target: agent
repeat: 2
cases:
  - id: order-status
    input: Where is my order A1?
    assert:
      - { type: contains, value: shipped }
      - { type: judge, criteria: Tells the customer the order's status., threshold: 0.5 }
  - id: greeting
    input: Hi
    assert: [{ type: judge, criteria: Greets the customer warmly., threshold: 0.8 }]
`;

const env = (broken: boolean) => ({ OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: 'sk-test-judge-key', ...(broken ? { BROKEN: '1' } : {}) });
const cli = (dir: string, args: string[], broken = false) => runCliInProcess(args, { cwd: dir, env: env(broken) });
const results = (dir: string, file: string) => ResultsSchema.parse(JSON.parse(readFileSync(join(dir, file), 'utf8')));

/** A project with its baseline saved (`main`, and base.json), judged by judge A: both cases pass 2/2. */
async function project(evalFile = EVAL): Promise<string> {
  const dir = writeProject({ 'evals.config.mjs': CONFIG, 'evals/support.eval.yaml': evalFile });
  const base = await cli(dir, ['run', '--no-early-stop', '--save-baseline', '--json', 'base.json']);
  expect(base.code, base.stdout + base.stderr).toBe(0);
  return dir;
}

describe('a broken agent judged by another judge', () => {
  it('run --baseline --judge <other>: the contains failure is regressed, counted, exit 1; the greeting stays judge changed', async () => {
    const dir = await project();
    const r = await cli(dir, ['run', '--no-early-stop', '--baseline', 'main', '--judge', 'openai:judge-b', '--json', 'head.json'], true);
    const out = stripAnsi(r.stdout);
    expect(r.code, out + r.stderr).toBe(1);
    expect(out).toMatch(
      /regressed\s+support\/order-status\s+2\/2 → 0\/2, p = 0\.167 \(contains "shipped" failed 2\/2, baseline 0\/2 \(no judge graded it\); the judge also changed \(judge openai:judge-a → openai:judge-b\)/,
    );
    expect(out).toMatch(/judge changed\s+support\/greeting\s+2\/2 → 0\/2 \(judge openai:judge-a → openai:judge-b\)/);
    expect(out).toMatch(/1 regressed \(1 counted, max 0\), 0 improved, 0 unchanged, 1 judge changed/);
    const { comparison } = results(dir, 'head.json');
    expect(comparison).toMatchObject({ failed: true, counted: 1, counts: { regressed: 1, 'judge-changed': 1 } });
    expect(comparison!.cases.find((c) => c.key === 'support/order-status')).toMatchObject({
      kind: 'regressed',
      counted: true,
      failedAssertions: [{ name: 'contains "shipped"', kind: 'contains', judged: false, base: { failed: 0, run: 2 }, head: { failed: 2, run: 2 } }],
      judgeChanges: ['judge openai:judge-a → openai:judge-b'],
    });

    // `compare` of the same two files agrees.
    const compared = await cli(dir, ['compare', 'base.json', 'head.json']);
    expect(compared.code, compared.stdout + compared.stderr).toBe(1);
    expect(stripAnsi(compared.stdout)).toMatch(/regressed\s+support\/order-status\s+2\/2 → 0\/2/);
    expect(stripAnsi(compared.stdout)).toMatch(/judge changed\s+support\/greeting/);
  });

  it("compare --rejudge, with head's judge or the config's, and run --baseline --rejudge: regressed, exit 1", async () => {
    const dir = await project();
    const head = await cli(dir, ['run', '--no-early-stop', '--judge', 'openai:judge-b', '--json', 'head.json'], true);
    expect(head.code, head.stdout + head.stderr).toBe(1);
    // Re-judged by head's judge B: the same judge on both sides, so the case's own verdict drop decides.
    const same = await cli(dir, ['compare', 'base.json', 'head.json', '--rejudge', '--judge', 'openai:judge-b']);
    expect(same.code, same.stdout + same.stderr).toBe(1);
    expect(stripAnsi(same.stdout)).toMatch(/regressed\s+support\/order-status\s+agent effect: 2\/2 → 0\/2, p = 0\.167 \(verdict passed → failed, score 0\.70 → 0\.00\)/);
    expect(stripAnsi(same.stdout)).toMatch(/1 regression against baseline base\.json/);
    // What the re-judge spent on judges is said on stdout beside the comparison, and kept in its JSON.
    expect(stripAnsi(same.stdout)).toMatch(/^Re-judge {2}judge [1-9]\d* calls? \d+ tok \S+ \(re-judging the baseline; not in the run's usage\)$/m);
    expect(stripAnsi(same.stdout)).toContain(
      'How a case is classified: an assertion no judge graded (a deterministic check, gate or soft) that fails more often than in the baseline makes its case regressed',
    );
    const json = await cli(dir, ['compare', 'base.json', 'head.json', '--rejudge', '--judge', 'openai:judge-b', '--no-cache', '--json']);
    expect(json.code, json.stderr).toBe(1);
    const spent = ResultsSchema.shape.comparison.parse(JSON.parse(json.stdout))!.rejudge!.usage!;
    // Both cases' 2 recorded trials re-judged, the cache off: one call per judged assertion asked (the order's gate passed in the baseline).
    expect(spent.calls).toBe(4);
    expect(spent.inputTokens).toBeGreaterThan(0);
    // Re-judged by the config's judge A while head was judged by B: the judges differ, the contains failure still counts.
    const config = await cli(dir, ['compare', 'base.json', 'head.json', '--rejudge']);
    const out = stripAnsi(config.stdout);
    expect(config.code, out + config.stderr).toBe(1);
    expect(out).toMatch(/regressed\s+support\/order-status\s+agent effect: 2\/2 → 0\/2, p = 0\.167 \(contains "shipped" failed 2\/2, baseline 0\/2 \(no judge graded it\); the judge also changed/);
    expect(out).toMatch(/judge changed\s+support\/greeting/);
    expect(out).toMatch(/1 regression against baseline base\.json/);

    // `run --baseline --rejudge` re-judges with the run's own judge: the same judge on both sides.
    const r = await cli(dir, ['run', '--no-early-stop', '--baseline', 'base.json', '--judge', 'openai:judge-b', '--rejudge', '--json', 'rerun.json'], true);
    expect(r.code, r.stdout + r.stderr).toBe(1);
    expect(stripAnsi(r.stdout)).toMatch(/regressed\s+support\/order-status\s+agent effect: 2\/2 → 0\/2, p = 0\.167 \(verdict passed → failed/);
    expect(results(dir, 'rerun.json').comparison).toMatchObject({ failed: true, counted: 1, rejudge: { usage: { calls: expect.any(Number) as number } } });
  });

  it("a soft contains that fails makes the case only scored: the exit code 1 is the comparison's alone", async () => {
    const dir = await project(EVAL.replace('{ type: contains, value: shipped }', '{ type: contains, value: shipped, severity: soft }'));
    const r = await cli(dir, ['run', '--no-early-stop', '--baseline', 'main', '--judge', 'openai:judge-b'], true);
    const out = stripAnsi(r.stdout);
    expect(r.code, out + r.stderr).toBe(1);
    expect(out).toMatch(/~ 0\/2 \(needed 2\)\s+support\/order-status/);
    expect(out).toMatch(/regressed\s+support\/order-status\s+2\/2 → 0\/2, p = 0\.167 \(contains "shipped" failed 2\/2, baseline 0\/2 \(no judge graded it\); the judge also changed/);
    expect(out).toContain('✗ 1 regression against baseline main');
  });

  it('the agent unbroken: a judged score moved by the new judge alone still reads judge changed, exit 0, with run, compare and compare --rejudge', async () => {
    const dir = await project();
    const r = await cli(dir, ['run', '--no-early-stop', '--baseline', 'main', '--judge', 'openai:judge-b', '--json', 'head.json']);
    const out = stripAnsi(r.stdout);
    expect(r.code, out + r.stderr).toBe(0);
    expect(out).toMatch(/judge changed\s+support\/greeting\s+2\/2 → 0\/2 \(judge openai:judge-a → openai:judge-b\)/);
    expect(out).toMatch(/0 regressed \(0 counted, max 0\)/);
    const compared = await cli(dir, ['compare', 'base.json', 'head.json']);
    expect(compared.code, compared.stdout + compared.stderr).toBe(0);
    expect(stripAnsi(compared.stdout)).toMatch(/judge changed\s+support\/greeting\s+2\/2 → 0\/2/);
    // Re-judged by the config's judge A, head's judge B differs: judge changed, not counted.
    const rejudged = await cli(dir, ['compare', 'base.json', 'head.json', '--rejudge']);
    expect(rejudged.code, rejudged.stdout + rejudged.stderr).toBe(0);
    expect(stripAnsi(rejudged.stdout)).toMatch(/judge changed\s+support\/greeting\s+agent effect: 2\/2 → 0\/2 \(judge openai:judge-a → openai:judge-b\)/);
  });
});
