/**
 * `rejudgeRecorded` (runner/rejudge/rejudge.ts) over a run recorded in-process: the targets are replayed,
 * never called; gates and judges run again on the recorded output; cases that cannot be re-judged
 * (not in the config, edited, a `safe` recording whose raw traces are gone) are listed with why.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { UserConfig } from '../../src/config/define-config.js';
import type { RunFlags } from '../../src/config/run-settings.js';
import { createJudgeService } from '../../src/judges/create-judge-service.js';
import { rawTrialsPath } from '../../src/report/raw-trials.js';
import { digest } from '../../src/core/digest.js';
import { digestCase } from '../../src/core/trace-digest.js';
import type { Results } from '../../src/core/results-schema.js';
import { removeTempDirs } from '../support/cli.js';
import { startFakeOpenAI, type FakeOpenAI } from '../support/fake-openai.js';
import { rejudgeInProcess, runInProcess } from '../support/run-in-process.js';

let fake: FakeOpenAI | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});
afterAll(removeTempDirs);

const judgeEnv = { OPENAI_API_KEY: 'sk-test-dummy-key-000000' };
const EVALS = (politeInput = 'hi') => `suite: s
target: agent
repeat: 2
cases:
  - id: polite
    input: ${politeInput}
    assert:
      - { type: contains, value: ok }
      - { type: judge, criteria: is polite }
  - id: gated
    input: bad
    assert:
      - { type: contains, value: ok }
      - { type: judge, criteria: is polite }
  - id: tools
    input: look it up
    assert:
      - { type: calledTool, tool: lookup }
      - { type: judge, criteria: used the lookup result }
`;

/** The judge scores 1 as gpt-4.1-mini and 0 as any other model: a judge change shows in the verdicts. */
const judgeReply = (body: { model?: string }) => ({ json: { score: body.model === 'gpt-4.1-mini' ? 1 : 0, reason: 'r', evidence: [] } });
const judgeRequests = (f: FakeOpenAI) => f.requests.filter((r) => r.path === '/v1/chat/completions');

function project() {
  const calls: string[] = [];
  const config: UserConfig = {
    targets: {
      agent: async (input, ctx) => {
        calls.push(input);
        if (input === 'look it up') {
          const found = await ctx.tool('lookup', { q: 'order 7' }, () => ({ status: 'shipped' }));
          return `ok, it is ${found.status}`;
        }
        return input === 'bad' ? 'nope' : 'ok, hello there';
      },
    },
    judge: { provider: 'openai', model: 'gpt-4.1-mini', baseURL: fake!.url, maxRetries: 0 },
    // Recorded in clear, so a re-judge needs no run folder (the `safe` test below makes it need one).
    trace: 'full',
  };
  return { calls, config };
}

async function rejudge(dir: string, config: UserConfig, recorded: Results, flags: RunFlags = {}) {
  // `--judge provider:model` finds its endpoint by the provider's base-URL variable.
  const env = { ...judgeEnv, OPENAI_BASE_URL: fake!.url };
  // Polls of a fake batch need no wall-clock wait.
  const sleep = () => new Promise<void>((resolve) => setImmediate(resolve));
  const { outcome, warnings, full } = await rejudgeInProcess({ dir, config, recorded, env, flags, sleep });
  return { ...outcome, warnings, full: (id: string) => full.find((c) => c.id === id)! };
}

async function record(evals = EVALS(), made?: { calls: string[]; config: UserConfig }, flags: RunFlags = { earlyStop: false }) {
  fake ??= await startFakeOpenAI({ script: judgeReply });
  const { calls, config } = made ?? project();
  const run = await runInProcess({
    files: { 'evals/s.eval.yaml': evals },
    config,
    flags: { cache: false, ...flags },
    env: judgeEnv,
    judges: (settings, deps) => createJudgeService({ settings: settings.judging, ...deps, env: judgeEnv }),
  });
  return { ...run, calls, config };
}

describe('rejudgeRecorded', () => {
  it('calls no target, asks one judge request per judged assertion of the recorded trials, and re-runs gates', async () => {
    const { results, calls, config, dir } = await record();
    expect(calls).toHaveLength(6);
    // polite ×2 and tools ×2 judged; gated's gate failed, so its judge was skipped.
    expect(judgeRequests(fake!)).toHaveLength(4);
    const before = fake!.count;

    const out = await rejudge(dir, config, results);
    expect(calls).toHaveLength(6);
    expect(fake!.count - before).toBe(4);
    expect(out.rejudgedFrom).toEqual({ runId: results.run.id, startedAt: results.run.startedAt, file: 'r.json', cannotRejudge: [] });
    expect(out.cases.map((c) => [`${c.suite}/${c.id}`, c.verdict, c.passed])).toEqual([
      ['s/polite', 'passed', 2],
      ['s/gated', 'failed', 0],
      ['s/tools', 'passed', 2],
    ]);
    expect(out.exitCode).toBe(1);
  });

  it('with another judge (--judge) the verdicts follow that judge; the recorded gate failure stays with its judge skipped', async () => {
    const { results, calls, config, dir } = await record();
    const before = judgeRequests(fake!).length;
    const out = await rejudge(dir, config, results, { judge: 'openai:gpt-4.1-nano' });
    expect(calls).toHaveLength(6);
    const asked = judgeRequests(fake!).slice(before);
    expect(asked.map((r) => r.body.model)).toEqual(['gpt-4.1-nano', 'gpt-4.1-nano', 'gpt-4.1-nano', 'gpt-4.1-nano']);
    // The judge scores 0 as gpt-4.1-nano: judged assertions are soft by default, so the cases score.
    expect(out.cases.map((c) => [c.id, c.verdict])).toEqual([
      ['polite', 'scored'],
      ['gated', 'failed'],
      ['tools', 'scored'],
    ]);
  });

  it('lists a case not in the config and an edited case as "cannot rejudge", with why, and re-judges the rest', async () => {
    const { results, config, dir } = await record();
    writeFileSync(join(dir, 'evals/s.eval.yaml'), EVALS('hello').replace(/ {2}- id: gated[\s\S]*?(?= {2}- id: tools)/, ''));
    const out = await rejudge(dir, config, results);
    expect(out.rejudgedFrom.cannotRejudge).toEqual([
      { key: 's/polite', reason: 'edited', message: expect.stringMatching(/^edited since the run: its case fingerprint differs/) },
      { key: 's/gated', reason: 'not-in-config', message: 'not in the current config (or not selected)' },
    ]);
    expect(out.warnings).toEqual(
      expect.arrayContaining([expect.stringMatching(/^cannot rejudge s\/polite: edited since the run/), 'cannot rejudge s/gated: not in the current config (or not selected)']),
    );
    expect(out.cases.map((c) => c.id)).toEqual(['tools']);
  });

  it("a `safe` recording (tool data as digests) is re-judged from the run folder's raw trials, and listed when they are gone", async () => {
    const { results, config, dir } = await record();
    const tools = results.cases.find((c) => c.id === 'tools')!;
    const raw = { key: 's/tools', trials: tools.trials.map((t) => ({ index: t.index, trace: t.trace })) };
    // The recording as `trace: safe` keeps it: the tool's arguments and result as digests only.
    const hidden = digest({ q: 'order 7' });
    const safe: Results = { ...results, cases: results.cases.map((c) => (c.id === 'tools' ? digestCase(c) : c)) };
    expect(JSON.stringify(safe.cases.find((c) => c.id === 'tools'))).not.toContain('order 7');

    const gone = await rejudge(dir, config, safe);
    expect(gone.rejudgedFrom.cannotRejudge).toEqual([
      { key: 's/tools', reason: 'raw-trace-gone', message: `recorded under \`trace: safe\` and the run folder's raw traces are gone (${rawTrialsPath(join(dir, '.out'), results.run.id)})` },
    ]);

    const path = rawTrialsPath(join(dir, '.out'), results.run.id);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, `${JSON.stringify(raw)}\n`);
    const before = judgeRequests(fake!).length;
    // The judges see tool data in clear (`trace: full`), so their requests show which data they were given.
    const kept = await rejudge(dir, { ...config, trace: 'full' }, safe);
    expect(kept.rejudgedFrom.cannotRejudge).toEqual([]);
    expect(kept.cases.find((c) => c.id === 'tools')).toMatchObject({ verdict: 'passed', passed: 2 });
    // The judge read the raw tool arguments, not the recording's digests.
    const toolsAsked = judgeRequests(fake!)
      .slice(before)
      .filter((r) => JSON.stringify(r.body).includes('used the lookup result'));
    expect(toolsAsked).toHaveLength(2);
    for (const r of toolsAsked) {
      expect(JSON.stringify(r.body)).toContain('order 7');
      expect(JSON.stringify(r.body)).not.toContain(hidden.hash);
    }
  });

  it('replays a conversation turn by turn, a target error as recorded, and the recorded time for latency gates', async () => {
    fake = await startFakeOpenAI({ script: judgeReply });
    const calls: string[] = [];
    const config: UserConfig = {
      targets: {
        agent: async (input, ctx) => {
          calls.push(input);
          if (input === 'boom') throw new Error('service down');
          // At least 120 ms: over the 50 ms bound whatever the machine's speed.
          if (input === 'slow') await new Promise((r) => setTimeout(r, 120));
          await ctx.tool('note', { input }, () => 'noted');
          return `#${ctx.turn} ${input}`;
        },
      },
      judge: { provider: 'openai', model: 'gpt-4.1-mini', baseURL: fake.url, maxRetries: 0 },
      trace: 'full',
    };
    const evals = `suite: m
target: agent
cases:
  - id: talk
    turns:
      - input: first
        assert: [{ type: contains, value: '#1 first' }]
      - input: second
    assert:
      - { type: contains, value: '#2 second' }
      - { type: judge, criteria: answers each turn }
  - id: broken
    input: boom
    assert: [{ type: judge, criteria: is polite }]
  - id: slow
    input: slow
    assert:
      - { type: maxLatencyMs, max: 50 }
      - { type: judge, criteria: is polite }
`;
    const { results, dir } = await record(evals, { calls, config });
    expect([...calls].sort()).toEqual(['boom', 'first', 'second', 'slow']);
    const before = judgeRequests(fake).length;
    expect(before).toBe(1);

    const out = await rejudge(dir, config, results, { concurrency: 1 });
    expect(calls).toHaveLength(4);
    const asked = judgeRequests(fake).slice(before);
    // Only talk reaches its judge, which reads the whole replayed conversation.
    expect(asked).toHaveLength(1);
    expect(JSON.stringify(asked[0]!.body)).toContain('#2 second');
    expect(JSON.stringify(asked[0]!.body)).toContain('#1 first');
    expect(out.cases.map((c) => [c.id, c.verdict])).toEqual([
      ['talk', 'passed'],
      ['broken', 'failed'],
      ['slow', 'failed'],
    ]);
    const was = (id: string) => results.cases.find((c) => c.id === id)!.trials[0]!;
    const talk = out.full('talk').trials[0]!;
    expect(talk.turns).toEqual(was('talk').turns);
    expect(talk.assertions.map((a) => [a.kind, a.status, a.turn])).toEqual([
      ['contains', 'passed', 1],
      ['contains', 'passed', undefined],
      ['judge', 'passed', undefined],
    ]);
    // The target error is the recorded one, word for word; no judge was asked.
    expect(out.full('broken').trials[0]).toMatchObject({ verdict: 'failed', error: 'target agent: service down', assertions: [] });
    expect(was('broken').error).toBe('target agent: service down');
    // The gate reads the recorded time (a replay takes none), and its judge is skipped again.
    const slow = out.full('slow').trials[0]!;
    expect(slow.assertions.map((a) => [a.kind, a.status])).toEqual([
      ['maxLatencyMs', 'failed'],
      ['judge', 'skipped'],
    ]);
    expect(slow.assertions[0]!.message).toBe(was('slow').assertions[0]!.message);
  });

  it('keeps what the recording says the agent did and spent, and --max-cost counts only the judges', async () => {
    fake = await startFakeOpenAI({ script: judgeReply });
    const config: UserConfig = {
      targets: {
        // 2M input tokens of gpt-4.1-mini per trial: more dollars than a budget of $0.5 holds.
        agent: () => ({ reply: 'ok, hello', model: 'openai:gpt-4.1-mini', usage: { inputTokens: 2_000_000, outputTokens: 0 } }),
      },
      judge: { provider: 'openai', model: 'gpt-4.1-mini', baseURL: fake.url, maxRetries: 0 },
      trace: 'full',
    };
    const evals = 'suite: c\ntarget: agent\nrepeat: 3\ncases:\n  - id: costly\n    input: hi\n    assert: [{ type: judge, criteria: is polite }]\n';
    const { results, dir } = await record(evals, { calls: [], config });
    const recordedCost = results.cases[0]!.usage.target.costUsd!;
    expect(recordedCost).toBeGreaterThan(1);
    const before = judgeRequests(fake).length;

    const out = await rejudge(dir, config, results, { maxCost: 0.5, concurrency: 1 });
    expect(judgeRequests(fake).length - before).toBe(3);
    expect(out.summary.failures).toEqual([]);
    expect(out.summary.usage.target.costUsd).toBeCloseTo(recordedCost, 10);
    expect(out.summary.usage.judge.calls).toBe(3);
  });

  it('does not warn about the target usage it replays: no target is called, its recorded cost is kept (a judge without a price still warns)', async () => {
    fake = await startFakeOpenAI({ script: judgeReply });
    const config: UserConfig = {
      // Usage without a model: the run warns that its cost is unknown (the user can set `model`).
      targets: { agent: () => ({ reply: 'ok, hello', usage: { inputTokens: 10, outputTokens: 5 } }) },
      judge: { provider: 'openai', model: 'gpt-4.1-mini', baseURL: fake.url, maxRetries: 0 },
      trace: 'full',
    };
    const evals = 'suite: u\ntarget: agent\ncases:\n  - id: unpriced\n    input: hi\n    assert: [{ type: judge, criteria: is polite }]\n';
    const { results, dir, warnings } = await record(evals, { calls: [], config });
    expect(warnings.join('\n')).toContain('token usage reported without a model');

    const out = await rejudge(dir, config, results, { judge: 'openai:judge-without-a-price' });
    expect(out.warnings.join('\n')).not.toContain('token usage reported without a model');
    expect(out.warnings.join('\n')).toContain('no price known for model openai:judge-without-a-price');
    expect(out.full('unpriced').trials[0]!.usage.target).toEqual(results.cases[0]!.trials[0]!.usage.target);
  });

  it("replays each turn's model calls with their models: a conversation's cost and step gates read as in the run, no unpriced warning", async () => {
    fake = await startFakeOpenAI({ script: judgeReply });
    const config: UserConfig = {
      targets: {
        // Two priced calls a turn, recorded on the steps (as ctx.openai() does), none on the run itself.
        agent: (input, ctx) => {
          ctx.usage({ inputTokens: 1000, outputTokens: 100, model: 'openai:gpt-4.1' });
          ctx.usage({ inputTokens: 2000, outputTokens: 200, model: 'openai:gpt-4.1' });
          return `ok ${input}`;
        },
      },
      judge: { provider: 'openai', model: 'gpt-4.1-mini', baseURL: fake.url, maxRetries: 0 },
      selfJudgingWarning: false,
      trace: 'full',
    };
    const evals = `suite: t
target: agent
cases:
  - id: talk
    turns:
      - input: first
        assert: [{ type: maxCostUsd, max: 1 }, { type: maxSteps, max: 2 }]
      - input: second
    assert:
      - { type: maxCostUsd, max: 1 }
      - { type: maxSteps, max: 4 }
      - { type: judge, criteria: answers each turn }
`;
    const { results, dir, warnings } = await record(evals, { calls: [], config });
    expect(warnings).toEqual([]);
    const was = results.cases[0]!.trials[0]!;
    expect(was.assertions.map((a) => [a.kind, a.status])).toEqual([
      ['maxCostUsd', 'passed'],
      ['maxSteps', 'passed'],
      ['maxCostUsd', 'passed'],
      ['maxSteps', 'passed'],
      ['judge', 'passed'],
    ]);

    const out = await rejudge(dir, config, results);
    expect(out.warnings).toEqual([]);
    const now = out.full('talk').trials[0]!;
    expect(now.assertions.map((a) => [a.kind, a.status, a.message])).toEqual(was.assertions.map((a) => [a.kind, a.status, a.message]));
  });

  it("reports the cases in the recording's order, not in the order they end", async () => {
    // The re-judge's one judge request (first's) is held until second's trial has ended: second ends first.
    let holding = false;
    let release = () => {};
    const secondEnded = new Promise<void>((resolve) => (release = resolve));
    fake = await startFakeOpenAI({ script: judgeReply, hold: () => (holding ? secondEnded : Promise.resolve()) });
    const evals = `suite: o
target: agent
cases:
  - id: first
    input: hi
    assert: [{ type: judge, criteria: is polite }]
  - id: second
    input: hi
    assert: [{ type: contains, value: ok }]
`;
    const { results, dir, config } = await record(evals);
    expect(results.cases.map((c) => c.id)).toEqual(['first', 'second']);
    holding = true;
    const env = { ...judgeEnv, OPENAI_BASE_URL: fake.url };
    const sleep = () => new Promise<void>((resolve) => setImmediate(resolve));
    const ended: string[] = [];
    const reporter = { onTrialEnd: (c: { id: string }) => void (c.id === 'second' && release()), onCaseEnd: (r: { id: string }) => void ended.push(r.id) };
    const { full } = await rejudgeInProcess({ dir, config, recorded: results, env, flags: { concurrency: 2 }, sleep, reporter });
    expect(full.map((c) => c.id)).toEqual(['first', 'second']);
    expect(ended).toEqual(['first', 'second']);
  });

  it('re-judges the trials the recording ran: those early stop left out stay not run, with its reason', async () => {
    const { results, calls, config, dir } = await record(EVALS().replace('repeat: 2', 'repeat: 3'), undefined, { concurrency: 1 });
    const gated = results.cases.find((c) => c.id === 'gated')!;
    expect(gated).toMatchObject({ planned: 3, notRun: 2, notRunReason: 'early-stop' });
    const n = calls.length;
    const out = await rejudge(dir, config, results, { concurrency: 1 });
    expect(calls).toHaveLength(n);
    expect(out.full('gated')).toMatchObject({ verdict: 'failed', planned: 3, notRun: 2, notRunReason: 'early-stop' });
    expect(out.full('gated').trials.map((t) => t.index)).toEqual(gated.trials.map((t) => t.index));
    expect(out.full('polite')).toMatchObject({ verdict: 'passed', planned: 3, notRun: 0 });
  });

  it("--judge-batch: the re-judge's judged assertions go out as one batch, none live", async () => {
    const { results, calls, config, dir } = await record();
    const live = judgeRequests(fake!).length;
    const out = await rejudge(dir, config, results, { judgeBatch: true });
    expect(calls).toHaveLength(6);
    expect(judgeRequests(fake!)).toHaveLength(live);
    expect(fake!.batches.creates).toHaveLength(1);
    expect(fake!.batches.creates[0]!.lines).toBe(4);
    expect(out.cases.map((c) => [c.id, c.verdict])).toEqual([
      ['polite', 'passed'],
      ['gated', 'failed'],
      ['tools', 'passed'],
    ]);
  });

  it('runs a TS check again on the replay: its t.send gets the recorded next turn, its judge is asked again', async () => {
    fake = await startFakeOpenAI({ script: judgeReply });
    const calls: string[] = [];
    const config: UserConfig = {
      evals: ['**/*.eval.ts'],
      targets: {
        agent: (input, ctx) => {
          calls.push(input);
          return `#${ctx.turn} ${input}`;
        },
      },
      judge: { provider: 'openai', model: 'gpt-4.1-mini', baseURL: fake.url, maxRetries: 0 },
    };
    const evalTs = `export default {
  suite: 'ts',
  target: 'agent',
  cases: [
    {
      id: 'follow-up',
      input: 'first',
      check: async (t) => {
        t.contains('#1 first');
        await t.send('more');
        t.contains('#2 more');
        t.expectJudge('answers the follow-up');
      },
    },
  ],
};
`;
    const run = await runInProcess({
      files: { 'evals/ts.eval.ts': evalTs },
      config,
      flags: { cache: false },
      env: judgeEnv,
      judges: (settings, deps) => createJudgeService({ settings: settings.judging, ...deps, env: judgeEnv }),
    });
    expect(calls).toEqual(['first', 'more']);
    const before = judgeRequests(fake).length;
    const out = await rejudge(run.dir, config, run.results);
    expect(calls).toHaveLength(2);
    expect(judgeRequests(fake).length - before).toBe(1);
    const trial = out.full('follow-up').trials[0]!;
    expect(trial.turns).toEqual(run.results.cases[0]!.trials[0]!.turns);
    expect(trial.assertions.map((a) => [a.kind, a.status, a.turn])).toEqual([
      ['contains', 'passed', 1],
      ['contains', 'passed', 2],
      ['judge', 'passed', 2],
    ]);
  });

  it('a TS check counts by its source as written: a rubric edited inside it is an edited case; one read from a constant outside it is re-judged', async () => {
    fake = await startFakeOpenAI({ script: judgeReply });
    const config: UserConfig = {
      evals: ['**/*.eval.ts'],
      targets: { agent: () => 'ok' },
      judge: { provider: 'openai', model: 'gpt-4.1-mini', baseURL: fake.url, maxRetries: 0 },
    };
    const inside = (rubric: string) => `export default { suite: 'in', target: 'agent', cases: [{ id: 'c', input: 'hi', check: (t) => void t.expectJudge(${JSON.stringify(rubric)}) }] };\n`;
    const outside = (rubric: string) =>
      `const RUBRIC = ${JSON.stringify(rubric)};\nexport default { suite: 'out', target: 'agent', cases: [{ id: 'c', input: 'hi', check: (t) => void t.expectJudge(RUBRIC) }] };\n`;
    const run = await runInProcess({
      files: { 'evals/in.eval.ts': inside('is polite'), 'evals/out.eval.ts': outside('is polite') },
      config,
      flags: { cache: false },
      env: judgeEnv,
      judges: (settings, deps) => createJudgeService({ settings: settings.judging, ...deps, env: judgeEnv }),
    });
    // Edited under new names: a module already imported at a path may be served again from this process's module cache.
    for (const f of ['in', 'out']) rmSync(join(run.dir, `evals/${f}.eval.ts`));
    writeFileSync(join(run.dir, 'evals/in-edited.eval.ts'), inside('is polite and brief'));
    writeFileSync(join(run.dir, 'evals/out-edited.eval.ts'), outside('is polite and brief'));
    const before = judgeRequests(fake).length;
    const out = await rejudge(run.dir, config, run.results);
    expect(out.rejudgedFrom.cannotRejudge).toEqual([{ key: 'in/c', reason: 'edited', message: expect.stringMatching(/^edited since the run: its case fingerprint differs/) }]);
    expect(out.cases.map((c) => `${c.suite}/${c.id}`)).toEqual(['out/c']);
    const asked = judgeRequests(fake).slice(before);
    expect(asked).toHaveLength(1);
    expect(JSON.stringify(asked[0]!.body)).toContain('is polite and brief');
  });
});
