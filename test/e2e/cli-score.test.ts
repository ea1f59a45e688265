/**
 * `agent-evals score <traces…>` through the CLI (the built CLI's `main` in-process), over JSONL traces:
 * a scoring file with a gate and a judge grades recorded runs against the fake OpenAI judge, no target
 * is called (the project's target appends a line to CALLS on every call), `--save-failures` writes
 * cases that load and fail against the agent that recorded the failures. Needs dist/.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { removeTempDirs, STACK_FRAME } from '../support/cli.js';
import { runCliInProcess, startCliInProcess } from '../support/cli-in-process.js';
import type { FakeBatchOptions } from '../support/fake-openai-batch.js';
import { startFakeOpenAI, type FakeOpenAI } from '../support/fake-openai.js';
import { readResults } from '../support/results-helpers.js';
import { writeProject } from '../support/temp-project.js';

let fake: FakeOpenAI | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});
afterAll(removeTempDirs);

// The agent the traces were recorded from: rude to an angry user, and no order id when none is given.
// Its source goes into the project's config, so the saved cases run against the very same agent.
const reply = (input: string): string => (input.includes('angry') ? 'Order shipped. Stop whining.' : /A-\d+/.test(input) ? `Your order ${/A-\d+/.exec(input)![0]} has shipped.` : 'I cannot find it.');
const CONFIG = `import { appendFileSync } from 'node:fs';
const reply = ${reply.toString()};
export default {
  targets: {
    agent(input) {
      appendFileSync(process.env.CALLS, input + '\\n');
      return reply(input);
    },
  },
  judge: 'openai:gpt-4.1-mini',
};
`;
const SCORING = `name: support
description: what every support reply must do
where: { agent: support }
assert:
  - { type: contains, value: shipped, severity: gate }
  - { type: judge, criteria: the reply is polite, severity: gate }
`;
const line = (id: string, input: string, metadata: Record<string, unknown>, startedAt: string) =>
  JSON.stringify({ id, startedAt, input, reply: reply(input), toolCalls: [{ name: 'lookup_order', args: { q: input } }], usage: { inputTokens: 100, outputTokens: 20 }, metadata });
const TRACES = [
  line('t1', 'where is A-1?', { agent: 'support' }, '2026-12-01T09:00:00Z'),
  line('t2', 'I am angry, where is A-2?', { agent: 'support' }, '2026-12-01T10:00:00Z'),
  line('t3', 'where is my order?', { agent: 'support' }, '2026-12-02T09:00:00Z'),
  line('t4', 'where is A-4?', { agent: 'billing' }, '2026-12-02T10:00:00Z'),
  line('t5', 'status of A-5 please', { agent: 'support' }, '2026-12-03T09:00:00Z'),
].join('\n');

const judgeRequests = (f: FakeOpenAI) => f.requests.filter((r) => r.path === '/v1/chat/completions');

async function project(files: Record<string, string> = {}, batch?: FakeBatchOptions) {
  // The judge finds a reply that tells the user to stop whining impolite.
  fake = await startFakeOpenAI({ ...(batch ? { batch } : {}), script: (body: unknown) => ({ json: { score: JSON.stringify(body).includes('whining') ? 0 : 1, reason: 'r', evidence: [] } }) });
  const dir = writeProject({ 'evals.config.mjs': CONFIG, 'evals/support.score.yaml': SCORING, 'traces/prod.jsonl': TRACES, ...files });
  const env = { CALLS: join(dir, 'calls.txt'), OPENAI_API_KEY: 'sk-test-dummy-key-000000', OPENAI_BASE_URL: fake.url };
  const cli = (args: string[]) => runCliInProcess(args, { cwd: dir, env });
  const started = (args: string[]) => startCliInProcess(args, { cwd: dir, env });
  const targetCalls = () => (existsSync(env.CALLS) ? readFileSync(env.CALLS, 'utf8').split('\n').filter(Boolean).length : 0);
  return { dir, cli, started, targetCalls };
}

describe('agent-evals score', () => {
  it('grades each trace its scoring file matches with its gate and judge, calls no target, and writes one results document', async () => {
    const { dir, cli, targetCalls } = await project();
    const res = await cli(['score', 'traces/prod.jsonl', '--no-cache']);
    expect(res.code, res.stdout + res.stderr).toBe(1);
    expect(targetCalls()).toBe(0);
    expect(res.stderr).toContain('Scoring 5 traces from traces/prod.jsonl with evals/support.score.yaml');
    expect(res.stderr).toContain("1 trace matched no scoring file's `where` and is not scored (t4)");
    expect(res.stderr).not.toMatch(STACK_FRAME);

    const out = readResults(join(dir, '.agent-evals', 'scored.json'));
    expect(out.run.scoredFrom).toEqual({ files: ['traces/prod.jsonl'], traces: 5, unmatched: 1, scoring: ['evals/support.score.yaml'] });
    expect(out.cases.map((c) => [c.suite, c.id, c.verdict])).toEqual([
      ['support', 't1', 'passed'],
      ['support', 't2', 'failed'],
      ['support', 't3', 'failed'],
      ['support', 't5', 'passed'],
    ]);
    expect(out.cases[1]!.scoredTrace).toEqual({ id: 't2', startedAt: '2026-12-01T10:00:00Z', source: 'traces/prod.jsonl:2' });
    // t3's gate failed: its judge was not asked. The other three were judged, once each.
    expect(judgeRequests(fake!)).toHaveLength(3);
    expect(out.summary.usage.judge.calls).toBe(3);
    // Nothing was called: the recorded spend stays in each trial's trace, not in the target's usage.
    expect(out.summary.usage.target.calls).toBe(0);
    expect(out.cases[0]!.trials[0]!.trace.usage).toEqual({ inputTokens: 100, outputTokens: 20 });
    expect(out.cases[0]!.trials[0]!.reply).toBe('Your order A-1 has shipped.');
    // The run folder keeps a copy: history and `view` see the scored batch.
    expect(existsSync(join(dir, '.agent-evals', 'runs', out.run.id, 'results.json'))).toBe(true);
    // The terminal names the failed traces with their time and source.
    expect(res.stdout).toContain('support/t2');
    expect(res.stdout).toContain('trace t2 (2026-12-01T10:00:00Z, traces/prod.jsonl:2)');
  });

  it('a scoring file whose where matches no trace (a key mistyped) is named on stderr with the keys the traces hold, while the others score', async () => {
    const { cli } = await project({ 'evals/billing.score.yaml': 'name: billing\nwhere: { agnet: billing }\nassert:\n  - { type: contains, value: shipped }\n' });
    const res = await cli(['score', 'traces/prod.jsonl', '--no-cache', '--until', '2026-12-01T09:30:00Z']);
    expect(res.code, res.stdout + res.stderr).toBe(0);
    expect(res.stderr).toContain('agent-evals: evals/billing.score.yaml: where {"agnet":"billing"} matches no trace of the 1 read, so it scored nothing (the traces\' metadata keys: agent)');
    expect(res.stderr).not.toContain('support.score.yaml: where');
  });

  it('--since/--until keep the traces recorded in the window', async () => {
    const { dir, cli } = await project();
    const res = await cli(['score', 'traces/prod.jsonl', '--since', '2026-12-02', '--until', '2026-12-03', '--json', 'w.json']);
    expect(res.code, res.stdout + res.stderr).toBe(1);
    const out = readResults(join(dir, 'w.json'));
    expect(out.cases.map((c) => c.id)).toEqual(['t3']);
    expect(out.run.scoredFrom).toMatchObject({ since: '2026-12-02', until: '2026-12-03', traces: 2, unmatched: 1 });
  });

  it('--save-failures writes the failed traces as cases that load and fail against the agent that recorded them', async () => {
    const { dir, cli, targetCalls } = await project();
    const res = await cli(['score', 'traces/prod.jsonl', '--save-failures', 'evals/prod-misses.eval.yaml']);
    expect(res.code, res.stdout + res.stderr).toBe(1);
    expect(res.stderr).toContain('wrote evals/prod-misses.eval.yaml: 2 cases from the failed traces, against target "agent"');
    expect(targetCalls()).toBe(0);
    const text = readFileSync(join(dir, 'evals/prod-misses.eval.yaml'), 'utf8');
    expect(text).toContain('suite: prod-misses');
    expect(text).not.toContain('reference:');
    expect(text).toContain('recordedReply: Order shipped. Stop whining.');

    const list = await cli(['list', 'evals/prod-misses.eval.yaml']);
    expect(list.code, list.stdout + list.stderr).toBe(0);
    expect(list.stdout).toContain('prod-misses/t2');
    expect(list.stdout).toContain('prod-misses/t3');

    const run = await cli(['run', 'evals/prod-misses.eval.yaml', '--json', 'again.json']);
    expect(run.code, run.stdout + run.stderr).toBe(1);
    expect(targetCalls()).toBe(2);
    const again = readResults(join(dir, 'again.json'));
    expect(again.cases.map((c) => [c.id, c.verdict])).toEqual([
      ['t2', 'failed'],
      ['t3', 'failed'],
    ]);

    // A second save never replaces the first: refused before anything is judged.
    const before = judgeRequests(fake!).length;
    const twice = await cli(['score', 'traces/prod.jsonl', '--save-failures', 'evals/prod-misses.eval.yaml']);
    expect(twice.code).toBe(2);
    expect(twice.stderr).toContain('evals/prod-misses.eval.yaml');
    expect(twice.stderr).toContain('already exists');
    expect(judgeRequests(fake!).length).toBe(before);
    expect(readFileSync(join(dir, 'evals/prod-misses.eval.yaml'), 'utf8')).toBe(text);
  });

  it('--save-failures against a target the config does not name is exit 2 naming --target and the configured ones, before any judge call; nothing is written', async () => {
    const { dir, cli } = await project();
    const res = await cli(['score', 'traces/prod.jsonl', '--save-failures', 'evals/prod-misses.eval.yaml', '--target', 'support-agent']);
    expect(res.code, res.stdout + res.stderr).toBe(2);
    expect(res.stderr).toContain('--target: unknown target "support-agent"');
    expect(res.stderr).toContain('(configured: "agent")');
    expect(judgeRequests(fake!)).toHaveLength(0);
    expect(existsSync(join(dir, 'evals/prod-misses.eval.yaml'))).toBe(false);
  });

  it('a JSONL line with `toolCalls: []` called no tool (onlyTools passes); one without `toolCalls` fails trajectory assertions saying the trace holds none', async () => {
    const lines = [
      JSON.stringify({ id: 'none', input: 'hi', reply: 'hello', toolCalls: [], metadata: { agent: 'support' } }),
      JSON.stringify({ id: 'absent', input: 'hi', reply: 'hello', metadata: { agent: 'support' } }),
    ].join('\n');
    const { dir, cli } = await project({ 'evals/support.score.yaml': 'name: tools\nonlyTools: [lookup_order]\nassert:\n  - { type: contains, value: hello }\n', 'traces/tools.jsonl': lines });
    const res = await cli(['score', 'traces/tools.jsonl', '--json', 'tools.json']);
    expect(res.code, res.stdout + res.stderr).toBe(1);
    const byId = Object.fromEntries(readResults(join(dir, 'tools.json')).cases.map((c) => [c.id, c]));
    expect(byId.none!.verdict).toBe('passed');
    expect(byId.absent!.verdict).toBe('failed');
    expect(res.stdout).toContain('recorded no tool calls: the trace holds none (a JSONL trace line needs `toolCalls`');
    expect(res.stdout).not.toContain('use ctx.fetch');
  });

  it('a scoring file naming an unknown assertion is exit 2 naming the file, its line and the known types, before any judge call', async () => {
    const { cli } = await project({ 'evals/support.score.yaml': SCORING.replace('type: contains', 'type: containz') });
    const res = await cli(['score', 'traces/prod.jsonl']);
    expect(res.code, res.stdout + res.stderr).toBe(2);
    expect(res.stderr).toContain('evals/support.score.yaml:5');
    expect(res.stderr).toMatch(/unknown assertion type "containz": did you mean "contains"\? \(known: .*contains.*\)/);
    expect(res.stderr).not.toMatch(STACK_FRAME);
    expect(judgeRequests(fake!)).toHaveLength(0);
  });

  it('a trace file in no known format and an empty folder are exit 2 naming the file and what was expected, before any judge call', async () => {
    const { dir, cli } = await project({ 'traces/spans.json': JSON.stringify({ spans: [] }), 'traces/empty/.keep': '' });
    const unknown = await cli(['score', 'traces/spans.json']);
    expect(unknown.code, unknown.stdout + unknown.stderr).toBe(2);
    expect(unknown.stderr).toContain('traces/spans.json: ');
    expect(unknown.stderr).toContain('neither an OTLP JSON trace export, a results file nor JSONL trace lines ({input|messages, reply, …})');
    const empty = await cli(['score', 'traces/empty']);
    expect(empty.code, empty.stdout + empty.stderr).toBe(2);
    expect(empty.stderr).toContain('traces/empty: holds no .json/.jsonl/.ndjson file');
    for (const r of [unknown, empty]) expect(r.stderr).not.toMatch(STACK_FRAME);
    expect(judgeRequests(fake!)).toHaveLength(0);
    expect(existsSync(join(dir, '.agent-evals', 'scored.json'))).toBe(false);
  });

  it('--suite takes a dataset suite’s suite-level assertions; a suite without them is exit 2 naming it', async () => {
    const SUITE = `suite: replies\ntarget: agent\ndataset: rows.jsonl\nassert:\n  - { type: contains, value: shipped }\n`;
    const { dir, cli, targetCalls } = await project({
      'evals/replies.eval.yaml': SUITE,
      'evals/rows.jsonl': '{"input":"x"}\n',
      'evals/plain.eval.yaml': 'suite: plain\ntarget: agent\ncases:\n  - { id: a, input: hi, assert: [{ type: contains, value: hi }] }\n',
    });
    const res = await cli(['score', 'traces/prod.jsonl', '--suite', 'replies', '--json', 's.json']);
    expect(res.code, res.stdout + res.stderr).toBe(1);
    expect(targetCalls()).toBe(0);
    const out = readResults(join(dir, 's.json'));
    // No `where`: every trace, the billing one too.
    expect(out.cases.map((c) => [c.id, c.verdict])).toEqual([
      ['t1', 'passed'],
      ['t2', 'passed'],
      ['t3', 'failed'],
      ['t4', 'passed'],
      ['t5', 'passed'],
    ]);
    expect(out.run.scoredFrom).toMatchObject({ suite: 'replies', scoring: ['evals/replies.eval.yaml'] });

    const none = await cli(['score', 'traces/prod.jsonl', '--suite', 'plain']);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('suite "plain" has no suite-level `assert`');
  });

  it("--suite of a TypeScript suite runs its `check(t)` and custom predicates on each recorded reply; its cases' assertions are not applied", async () => {
    // Suite level: a custom predicate in `assert` and a `check(t)`. Case level: assertions no recorded reply passes.
    const TS = `export default {
  suite: 'ts-replies',
  target: 'agent',
  dataset: [{ input: 'a row' }],
  assert: [{ type: 'custom', name: 'no whining', fn: (ctx) => !ctx.reply.includes('whining') }],
  check: (t) => { t.contains('shipped').label('shipped: ' + t.input); },
  cases: [
    { id: 'own', input: 'hi', assert: [{ type: 'contains', value: 'CASE-LEVEL' }], check: (t) => { t.contains('CASE-CHECK').label('case check'); } },
  ],
};
`;
    const { dir, cli, targetCalls } = await project({ 'evals/replies.eval.ts': TS });
    const res = await cli(['score', 'traces/prod.jsonl', '--suite', 'ts-replies', '--json', 'ts.json']);
    expect(res.code, res.stdout + res.stderr).toBe(1);
    expect(targetCalls()).toBe(0);
    const out = readResults(join(dir, 'ts.json'));
    expect(out.run.scoredFrom).toMatchObject({ suite: 'ts-replies', scoring: ['evals/replies.eval.ts'] });
    // Each trace's own reply and input reach the check and the predicate; only the suite's two assertions are recorded.
    expect(out.cases.map((c) => [c.id, c.verdict, c.trials[0]!.assertions.map((a) => [a.kind, a.name, a.status])])).toEqual([
      [
        't1',
        'passed',
        [
          ['custom', 'custom "no whining"', 'passed'],
          ['contains', 'shipped: where is A-1?', 'passed'],
        ],
      ],
      [
        't2',
        'failed',
        [
          ['custom', 'custom "no whining"', 'failed'],
          ['contains', 'shipped: I am angry, where is A-2?', 'passed'],
        ],
      ],
      [
        't3',
        'failed',
        [
          ['custom', 'custom "no whining"', 'passed'],
          ['contains', 'shipped: where is my order?', 'failed'],
        ],
      ],
      [
        't4',
        'passed',
        [
          ['custom', 'custom "no whining"', 'passed'],
          ['contains', 'shipped: where is A-4?', 'passed'],
        ],
      ],
      [
        't5',
        'passed',
        [
          ['custom', 'custom "no whining"', 'passed'],
          ['contains', 'shipped: status of A-5 please', 'passed'],
        ],
      ],
    ]);
    expect(JSON.stringify(out.cases)).not.toMatch(/CASE-LEVEL|CASE-CHECK|case check/);
    // The check read the recorded run as a one-turn conversation: its trace and spend as recorded, nothing spent by the score.
    expect(out.cases[0]!.trials[0]!).toMatchObject({ reply: 'Your order A-1 has shipped.', trace: { usage: { inputTokens: 100, outputTokens: 20 } } });
    expect(out.cases[0]!.trials[0]!.trace.steps?.[0]?.toolCalls?.map((t) => t.name)).toEqual(['lookup_order']);
    expect(out.cases[0]!.trials[0]!.turns).toBeUndefined();
    expect(out.summary.usage.target.calls).toBe(0);
    expect(judgeRequests(fake!)).toHaveLength(0);

    // --save-failures: t2 and t3 failed only TS code, which a YAML case cannot hold: no file, said so.
    const save = await cli(['score', 'traces/prod.jsonl', '--suite', 'ts-replies', '--json', 'ts2.json', '--save-failures', 'evals/ts-misses.eval.yaml']);
    expect(save.code, save.stdout + save.stderr).toBe(1);
    expect(save.stderr).toContain(
      "--save-failures: every failed trace (t2, t3) failed only TS predicates or a suite's check(t), which a YAML file cannot hold, so evals/ts-misses.eval.yaml was not written",
    );
    expect(existsSync(join(dir, 'evals/ts-misses.eval.yaml'))).toBe(false);

    // A check that sends a follow-up fails its trial saying why: a recording holds no more turns.
    const SEND = `export default { suite: 'ts-send', target: 'agent', dataset: [{ input: 'x' }], check: async (t) => { await t.send('and then?'); t.contains('shipped'); } };\n`;
    writeFileSync(join(dir, 'evals/send.eval.ts'), SEND);
    const sent = await cli(['score', 'traces/prod.jsonl', '--suite', 'ts-send', '--json', 'send.json']);
    expect(sent.code, sent.stdout + sent.stderr).toBe(1);
    expect(targetCalls()).toBe(0);
    const errors = readResults(join(dir, 'send.json')).cases.map((c) => c.trials[0]!.error);
    expect(errors).toHaveLength(5);
    for (const e of errors) expect(e).toContain('a recorded trace holds no conversation to continue');
  });

  it("--judge-batch sends the scored traces' judges to the provider in one batch, none live (Ctrl-C then cancels it)", async () => {
    // The batch never ends on its own: what the command sent is read as soon as it says so, with no wait on the clock.
    // Its verdicts reaching scored.json: test/runner/score-judge-batch.test.ts, with the batch's polls on an injected sleep.
    const { started, targetCalls } = await project({}, { pollsInProgress: 1_000_000 });
    const cli = started(['score', 'traces/prod.jsonl', '--judge-batch', '--no-cache']);
    await cli.waitForStderr(/judge batch \S+ \(openai:gpt-4\.1-mini\): 3 requests submitted/);
    expect(cli.kill('SIGINT')).toBe(true);
    const r = await cli.done;
    expect(r.code, r.stdout + r.stderr).toBe(130);
    // t1, t2 and t5 reach their judge (t3's gate fails first, t4 matches no `where`): three lines of one batch.
    expect(fake!.batches.creates).toEqual([expect.objectContaining({ lines: 3 })]);
    expect(fake!.batches.cancels).toEqual([fake!.batches.creates[0]!.id]);
    expect(judgeRequests(fake!)).toHaveLength(0);
    expect(targetCalls()).toBe(0);
  });

  it('--judge-noise re-asks the judges on the scored traces, as for a run', async () => {
    const { dir, cli } = await project();
    const res = await cli(['score', 'traces/prod.jsonl', '--judge-noise', '2', '--json', 'n.json']);
    expect(res.code, res.stdout + res.stderr).toBe(1);
    // 3 traces reach the judge (t3's gate fails first): each asked once, then twice more.
    expect(judgeRequests(fake!)).toHaveLength(9);
    const out = readResults(join(dir, 'n.json'));
    expect(out.cases.find((c) => c.id === 't1')!.judgeNoise!.assertions).toEqual([expect.objectContaining({ name: expect.stringContaining('polite'), reasks: 2, flips: 0 })]);
  });

  it("--max-cost counts the judges' spend only: the recorded agent's is not spent again", async () => {
    // Each recorded run cost about $2 (a million input tokens of gpt-4.1); the judges cost a fraction of a cent.
    const costly = TRACES.split('\n')
      .map((l) => JSON.stringify({ ...(JSON.parse(l) as object), model: 'openai:gpt-4.1', usage: { inputTokens: 1_000_000, outputTokens: 0 } }))
      .join('\n');
    const { dir, cli } = await project({ 'traces/prod.jsonl': costly });
    const res = await cli(['score', 'traces/prod.jsonl', '--max-cost', '0.5', '-j', '1', '--json', 'b.json']);
    expect(res.code, res.stdout + res.stderr).toBe(1);
    const out = readResults(join(dir, 'b.json'));
    expect(out.summary.failures.filter((f) => f.includes('budget'))).toEqual([]);
    expect(out.summary.trials.notRun).toBe(0);
    expect(out.cases.map((c) => c.verdict)).toEqual(['passed', 'failed', 'failed', 'passed']);
    // The recorded spend stays in each trace, priced nowhere in the score's usage.
    expect(out.summary.usage.target.costUsd).toBe(0);
    expect(out.cases[0]!.trials[0]!.trace.usage).toEqual({ inputTokens: 1_000_000, outputTokens: 0 });
  });

  it('never writes its results over a file it scores (a scored batch scored again)', async () => {
    const { dir, cli } = await project({ 'evals/any.score.yaml': 'name: any\nassert: [{ type: contains, value: order }]\n' });
    expect((await cli(['score', 'traces/prod.jsonl', '--scoring', 'evals/support.score.yaml'])).code).toBe(1);
    const first = readFileSync(join(dir, '.agent-evals', 'scored.json'), 'utf8');
    const again = await cli(['score', '.agent-evals/scored.json', '--scoring', 'evals/any.score.yaml']);
    expect(again.code, again.stdout + again.stderr).toBe(2);
    expect(again.stderr).toContain('would overwrite the trace file .agent-evals/scored.json it scores');
    expect(readFileSync(join(dir, '.agent-evals', 'scored.json'), 'utf8')).toBe(first);
  });

  it('a baseline comparison refuses a scored batch as the baseline of a run', async () => {
    const { cli } = await project({ 'evals/plain.eval.yaml': 'suite: support\ntarget: agent\ncases:\n  - { id: t1, input: where is A-1?, assert: [{ type: contains, value: shipped }] }\n' });
    expect((await cli(['score', 'traces/prod.jsonl', '--json', 'scored.json'])).code).toBe(1);
    const res = await cli(['run', '--baseline', 'scored.json']);
    expect(res.code, res.stdout + res.stderr).toBe(2);
    expect(res.stderr).toContain('scored.json');
    expect(res.stderr).toContain('a scored batch of recorded traces');
  });
});
