/**
 * `agent-evals rejudge <results.json>` through the CLI (the built CLI's `main` in-process): a run is
 * recorded against a function target that counts its calls and a fake OpenAI judge, then re-judged.
 * The fake judge scores 1 as gpt-4.1-mini and 0 as any other model. Needs dist/ (`npm test` builds it).
 */
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { removeTempDirs, STACK_FRAME } from '../support/cli.js';
import { runCliInProcess } from '../support/cli-in-process.js';
import { startFakeOpenAI, type FakeOpenAI } from '../support/fake-openai.js';
import { readResults } from '../support/results-helpers.js';
import { writeProject } from '../support/temp-project.js';

let fake: FakeOpenAI | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});
afterAll(removeTempDirs);

// The target appends a line to CALLS on every call: the file's lines are the target calls.
const CONFIG = `import { appendFileSync } from 'node:fs';
export default {
  targets: {
    agent(input) {
      appendFileSync(process.env.CALLS, input + '\\n');
      return input === 'bad' ? 'nope' : 'ok, hello there';
    },
  },
  judge: 'openai:gpt-4.1-mini',
};
`;
const POLITE = `  - id: polite
    input: hi
    assert:
      - { type: contains, value: ok }
      - { type: judge, criteria: is polite, severity: gate }
`;
const GATED = `  - id: gated
    input: bad
    assert:
      - { type: contains, value: ok }
      - { type: judge, criteria: is polite, severity: gate }
`;
const evalFile = (...cases: string[]) => `suite: s\ntarget: agent\nrepeat: 2\ncases:\n${cases.join('')}`;

const judgeRequests = (f: FakeOpenAI) => f.requests.filter((r) => r.path === '/v1/chat/completions');

async function recorded(...cases: string[]) {
  fake = await startFakeOpenAI({ script: (body: { model?: string }) => ({ json: { score: body.model === 'gpt-4.1-mini' ? 1 : 0, reason: 'r', evidence: [] } }) });
  const dir = writeProject({ 'evals.config.mjs': CONFIG, 'evals/s.eval.yaml': evalFile(...cases) });
  const env = { CALLS: join(dir, 'calls.txt'), OPENAI_API_KEY: 'sk-test-dummy-key-000000', OPENAI_BASE_URL: fake.url };
  const cli = (args: string[]) => runCliInProcess(args, { cwd: dir, env });
  const run = await cli(['run', '--no-cache', '--no-early-stop', '--json', 'r.json']);
  const targetCalls = () => readFileSync(env.CALLS, 'utf8').split('\n').filter(Boolean).length;
  return { dir, cli, run, targetCalls, recorded: readResults(join(dir, 'r.json')) };
}

describe('agent-evals rejudge', () => {
  it('makes zero target calls and one judge request per judged assertion; the new file validates and names the run', async () => {
    const { dir, cli, run, targetCalls, recorded: r } = await recorded(POLITE);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(targetCalls()).toBe(2);
    const judgedBefore = judgeRequests(fake!).length;
    expect(judgedBefore).toBe(2);
    const recordedText = readFileSync(join(dir, 'r.json'), 'utf8');

    const res = await cli(['rejudge', 'r.json', '--no-cache']);
    expect(res.code, res.stdout + res.stderr).toBe(0);
    expect(targetCalls()).toBe(2);
    // One judged assertion in each of the 2 recorded trials: 2 requests, no more.
    expect(judgeRequests(fake!).length - judgedBefore).toBe(2);
    expect(res.stderr).toContain(`re-judging run ${r.run.id}`);

    const out = readResults(join(dir, 'r.rejudged.json'));
    expect(out.run.rejudgedFrom).toEqual({ runId: r.run.id, startedAt: r.run.startedAt, file: 'r.json', cannotRejudge: [] });
    expect(out.run.id).not.toBe(r.run.id);
    const c = out.cases[0]!;
    expect(c).toMatchObject({ suite: 's', id: 'polite', verdict: 'passed', passed: 2, planned: 2 });
    // What the agent did and spent is the recording's.
    expect(c.trials.map((t) => [t.reply, t.durationMs])).toEqual(r.cases[0]!.trials.map((t) => [t.reply, t.durationMs]));
    expect(c.trials[0]!.assertions.find((a) => a.kind === 'judge')!.judge).toMatchObject({ provider: 'openai', model: 'gpt-4.1-mini' });
    // The recording is untouched.
    expect(readFileSync(join(dir, 'r.json'), 'utf8')).toBe(recordedText);

    // The judge cache applies: the two trials' identical replies share one call, then the cache on disk answers.
    const cached = judgeRequests(fake!).length;
    expect((await cli(['rejudge', 'r.json', '--json', 'c1.json'])).code).toBe(0);
    expect(judgeRequests(fake!).length - cached).toBe(1);
    expect((await cli(['rejudge', 'r.json', '--json', 'c2.json'])).code).toBe(0);
    expect(judgeRequests(fake!).length - cached).toBe(1);
    expect(readResults(join(dir, 'c2.json')).summary.counters.judgeCallsFromCache).toBe(2);
    expect(targetCalls()).toBe(2);
  });

  it('--judge with another model changes the verdicts; a gate that fails on the recorded reply fails again, its judge skipped', async () => {
    const { dir, cli, targetCalls } = await recorded(POLITE, GATED);
    const before = judgeRequests(fake!).length;
    const res = await cli(['rejudge', 'r.json', '--no-cache', '--judge', 'openai:gpt-4.1-nano', '--json', 'nano.json']);
    expect(res.code, res.stdout + res.stderr).toBe(1);
    expect(targetCalls()).toBe(4);
    // Only polite's 2 trials reach their judge; gated's gate fails first.
    expect(
      judgeRequests(fake!)
        .slice(before)
        .map((q) => q.body.model),
    ).toEqual(['gpt-4.1-nano', 'gpt-4.1-nano']);
    const out = readResults(join(dir, 'nano.json'));
    const polite = out.cases.find((c) => c.id === 'polite')!;
    expect(polite).toMatchObject({ verdict: 'failed', passed: 0 });
    expect(polite.trials[0]!.assertions.find((a) => a.kind === 'judge')).toMatchObject({ status: 'failed', judge: { model: 'gpt-4.1-nano' } });
    const gated = out.cases.find((c) => c.id === 'gated')!;
    expect(gated.verdict).toBe('failed');
    for (const t of gated.trials) {
      expect(t.reply).toBe('nope');
      expect(t.assertions.map((a) => [a.kind, a.status, a.skipped])).toEqual([
        ['contains', 'failed', undefined],
        ['judge', 'skipped', 'gate-failed'],
      ]);
    }
    expect(out.summary.counters.judgeCallsSkippedByGates).toBe(2);
  });

  it('lists the cases it cannot re-judge, with why, in the terminal and in the document', async () => {
    const { dir, cli } = await recorded(POLITE, GATED);
    // polite edited (another input), gated removed from the config.
    writeFileSync(join(dir, 'evals/s.eval.yaml'), evalFile(POLITE.replace('input: hi', 'input: hello'), POLITE.replace('id: polite', 'id: other')));
    const res = await cli(['rejudge', 'r.json', '--json', 'partial.json']);
    // Nothing was left to re-judge: bad input, named.
    expect(res.code, res.stdout + res.stderr).toBe(2);
    expect(res.stderr).toContain('nothing to re-judge in r.json: no recorded case can be re-judged');
    expect(res.stderr).toMatch(/s\/polite: edited since the run: its case fingerprint differs/);
    expect(res.stderr).toContain('s/gated: not in the current config (or not selected)');
    expect(res.stderr).not.toMatch(STACK_FRAME);

    // With polite as recorded, only gated cannot be re-judged.
    writeFileSync(join(dir, 'evals/s.eval.yaml'), evalFile(POLITE));
    const some = await cli(['rejudge', 'r.json', '--json', 'partial.json']);
    expect(some.code, some.stdout + some.stderr).toBe(0);
    expect(some.stdout + some.stderr).toContain('cannot rejudge s/gated: not in the current config (or not selected)');
    const out = readResults(join(dir, 'partial.json'));
    expect(out.run.rejudgedFrom!.cannotRejudge).toEqual([{ key: 's/gated', reason: 'not-in-config', message: 'not in the current config (or not selected)' }]);
    expect(out.summary.warnings).toContain('cannot rejudge s/gated: not in the current config (or not selected)');
    expect(out.cases.map((c) => c.id)).toEqual(['polite']);
  });

  it('bad input is exit 2 naming the file, without a stack trace, and the recording is never overwritten', async () => {
    const { dir, cli } = await recorded(POLITE);
    const missing = await cli(['rejudge', 'nope.json']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('nope.json');
    expect(missing.stderr).toContain('no such results file');
    writeFileSync(join(dir, 'bad.json'), '{"schemaVersion": 1}');
    const invalid = await cli(['rejudge', 'bad.json']);
    expect(invalid.code).toBe(2);
    expect(invalid.stderr).toMatch(/bad\.json.*not an agent-evals results file|not an agent-evals results file[\s\S]*bad\.json/);
    const before = readFileSync(join(dir, 'r.json'), 'utf8');
    const over = await cli(['rejudge', 'r.json', '--json', 'r.json']);
    expect(over.code).toBe(2);
    expect(over.stderr).toContain('would overwrite the recorded run r.json');
    for (const r of [missing, invalid, over]) expect(r.stderr).not.toMatch(STACK_FRAME);
    expect(readFileSync(join(dir, 'r.json'), 'utf8')).toBe(before);
    expect(existsSync(join(dir, 'bad.rejudged.json'))).toBe(false);
  });

  it('a file whose cases are repeated (50 times over) is exit 2 naming the first repeat, with no judge call', async () => {
    const { dir, cli, recorded: r } = await recorded(POLITE);
    const requests = judgeRequests(fake!).length;
    writeFileSync(join(dir, 'repeated.json'), JSON.stringify({ ...r, cases: Array.from({ length: 50 }, () => r.cases).flat() }));
    const res = await cli(['rejudge', 'repeated.json']);
    expect(res.code, res.stderr).toBe(2);
    expect(res.stderr).toContain('agent-evals: repeated.json: cases[1]: case s/polite is in the file twice (cases[0] and cases[1])');
    expect(res.stderr).not.toMatch(STACK_FRAME);
    expect(judgeRequests(fake!).length).toBe(requests);
    expect(existsSync(join(dir, 'repeated.rejudged.json'))).toBe(false);
  });

  it("under `trace: safe` re-judges from the run folder's raw trials, keeps its own outputs digested, and says when the folder is gone", async () => {
    fake = await startFakeOpenAI({ script: () => ({ json: { score: 1, reason: 'r', evidence: [] } }) });
    const config = `export default {
  targets: {
    async agent(input, ctx) {
      const found = await ctx.tool('lookup', { q: 'ORDER-SECRET-7731' }, () => ({ status: 'shipped' }));
      return 'ok, it is ' + found.status;
    },
  },
  judge: 'openai:gpt-4.1-mini',
};
`;
    // The gate matches the tool's raw argument: it passes only on the raw trace, never on a digest.
    const evals = `suite: t
target: agent
cases:
  - id: lookup
    input: where is my order?
    assert:
      - { type: calledTool, tool: lookup, args: { q: ORDER-SECRET-7731 } }
      - { type: judge, criteria: says where the order is }
`;
    const dir = writeProject({ 'evals.config.mjs': config, 'evals/t.eval.yaml': evals });
    const cli = (args: string[]) => runCliInProcess(args, { cwd: dir, env: { OPENAI_API_KEY: 'sk-test-dummy-key-000000', OPENAI_BASE_URL: fake!.url } });
    expect((await cli(['run', '--json', 'r.json'])).code).toBe(0);
    const r = readResults(join(dir, 'r.json'));
    expect(r.run.trace).toBe('safe');
    // (The gate's own message quotes the eval file's value; the trace holds the tool's data.)
    expect(JSON.stringify(r.cases[0]!.trials[0]!.trace)).not.toContain('ORDER-SECRET-7731');

    const res = await cli(['rejudge', 'r.json', '--no-cache']);
    expect(res.code, res.stdout + res.stderr).toBe(0);
    const out = readResults(join(dir, 'r.rejudged.json'));
    expect(JSON.stringify(out.cases[0]!.trials[0]!.trace)).not.toContain('ORDER-SECRET-7731');
    expect(out.cases[0]!.trials[0]!.trace).toEqual(r.cases[0]!.trials[0]!.trace);
    expect(out.run.rejudgedFrom!.cannotRejudge).toEqual([]);
    expect(out.cases[0]!.trials[0]!.assertions.map((a) => [a.kind, a.status])).toEqual([
      ['calledTool', 'passed'],
      ['judge', 'passed'],
    ]);
    // The re-judged run keeps its own raw trials: it can be re-judged in turn.
    expect(readFileSync(join(dir, '.agent-evals', 'runs', out.run.id, 'raw-trials.jsonl'), 'utf8')).toContain('ORDER-SECRET-7731');
    expect((await cli(['rejudge', 'r.rejudged.json', '--json', 'again.json'])).code).toBe(0);

    rmSync(join(dir, '.agent-evals', 'runs', r.run.id), { recursive: true });
    const gone = await cli(['rejudge', 'r.json', '--json', 'gone.json']);
    expect(gone.code).toBe(2);
    expect(gone.stderr).toContain(`t/lookup: recorded under \`trace: safe\` and the run folder's raw traces are gone`);
  });
});
