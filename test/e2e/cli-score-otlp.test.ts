/**
 * Issue 47's must-show for `agent-evals score`, through the CLI (the built CLI's `main` in-process):
 * an OTLP export of 20 runs of the AI SDK order agent (test/support/recorded-otlp.ts) against the fake
 * OpenAI server is scored by a scoring file with a gate and a judge that the same fake answers. Every
 * request the fake gets is counted: the agent's carry its tools, the judge's do not. Needs dist/.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { load } from 'js-yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT, removeTempDirs, STACK_FRAME } from '../support/cli.js';
import { runCliInProcess } from '../support/cli-in-process.js';
import { startFakeOpenAI, type FakeOpenAI } from '../support/fake-openai.js';
import { orderScript } from '../support/ai-sdk-order-agent.js';
import { RECORDED_AGENT, RECORDED_RUNS, recordedRun, writeRecordedOtlp } from '../support/recorded-otlp.js';
import { readResults } from '../support/results-helpers.js';
import { writeProject } from '../support/temp-project.js';

/** The judge finds the answers about orders wrong (whoever asks: the score, or a run of the saved cases). */
const FAILED = [5, 15];
const judged = (body: unknown) => ({ json: { score: /Order A-(5|15) has/.test(JSON.stringify(body)) ? 0 : 1, reason: 'r', evidence: [] } });

const SCORING = `name: orders
where: { agent: ${RECORDED_AGENT} }
assert:
  - { type: calledTool, tool: lookup_order, severity: gate }
  - { type: judge, criteria: the reply says where the order is, severity: gate }
`;

let fake: FakeOpenAI;
let dir: string;
let traceIds: Map<number, string>;
const agentRequests = () => fake.requests.filter((r) => (r.body as { tools?: unknown }).tools !== undefined).length;
const judgeRequests = () => fake.requests.filter((r) => r.path === '/v1/chat/completions' && (r.body as { tools?: unknown }).tools === undefined).length;
const cli = (args: string[]) => runCliInProcess(args, { cwd: dir, env: { OPENAI_API_KEY: 'sk-test-dummy-key-000000', OPENAI_BASE_URL: fake.url } });

beforeAll(async () => {
  fake = await startFakeOpenAI({ script: (body: { tools?: unknown }) => (body.tools !== undefined ? orderScript(body) : judged(body)) });
  const agent = JSON.stringify(pathToFileURL(join(REPO_ROOT, 'test/support/ai-sdk-order-agent.ts')).href);
  const adapter = JSON.stringify(pathToFileURL(join(REPO_ROOT, 'src/adapters/ai-sdk.ts')).href);
  // The agent that recorded the traces, as the project's target: the prompt it is given already names its trial.
  dir = writeProject({
    'evals.config.ts': `import { runOrderAgent } from ${agent};\nimport { fromAISDK } from ${adapter};\nexport default {\n  judge: 'openai:gpt-4.1-mini',\n  targets: { agent: async (input: string) => fromAISDK(await runOrderAgent(${JSON.stringify(fake.url)}, input, 0, { telemetry: false })) },\n};\n`,
    'evals/orders.score.yaml': SCORING,
  });
  mkdirSync(join(dir, 'traces'));
  traceIds = await writeRecordedOtlp(join(dir, 'traces', 'prod.otlp.json'), fake.url);
}, 60_000);
afterAll(async () => {
  await fake.close();
  removeTempDirs();
});

describe('agent-evals score over an OTLP export of 20 AI SDK runs', () => {
  it('scores all 20 with the gate and the judge in one results document, judge usage counted, no target call', async () => {
    const agentBefore = agentRequests();
    expect(agentBefore).toBe(2 * RECORDED_RUNS);
    const judgeBefore = judgeRequests();
    const res = await cli(['score', 'traces/prod.otlp.json', '--no-cache', '--json', 'scored.json']);
    expect(res.code, res.stdout + res.stderr).toBe(1);
    expect(res.stderr).toContain('Scoring 20 traces from traces/prod.otlp.json with evals/orders.score.yaml');
    // Zero target calls: every request the fake got while scoring was a judge's, one per trace.
    expect(agentRequests()).toBe(agentBefore);
    expect(judgeRequests() - judgeBefore).toBe(RECORDED_RUNS);

    const out = readResults(join(dir, 'scored.json'));
    expect(out.cases).toHaveLength(RECORDED_RUNS);
    expect(out.run.scoredFrom).toEqual({ files: ['traces/prod.otlp.json'], traces: 20, unmatched: 0, scoring: ['evals/orders.score.yaml'] });
    expect(out.summary.usage.judge.calls).toBe(RECORDED_RUNS);
    expect(out.summary.usage.judge.inputTokens).toBeGreaterThan(0);
    expect(out.summary.usage.target.calls).toBe(0);
    // Each case is a trace: its id, start and source, and what the agent did as recorded.
    for (let k = 1; k <= RECORDED_RUNS; k++) {
      const c = out.cases.find((x) => x.scoredTrace?.id === traceIds.get(k))!;
      expect(c.scoredTrace).toEqual({ id: traceIds.get(k), startedAt: recordedRun(k).startedAt, source: `traces/prod.otlp.json#${traceIds.get(k)}` });
      expect(c.trials[0]!.reply).toBe(recordedRun(k).reply);
      expect(c.verdict).toBe(FAILED.includes(k) ? 'failed' : 'passed');
    }
  });

  it('--sample 5 --seed 1 scores the same 5 traces every time', async () => {
    const ids = async (seed: number, file: string) => {
      const res = await cli(['score', 'traces/prod.otlp.json', '--sample', '5', '--seed', String(seed), '--json', file]);
      expect([0, 1], res.stdout + res.stderr).toContain(res.code);
      const out = readResults(join(dir, file));
      expect(out.run.scoredFrom).toMatchObject({ traces: 5, sample: 5, seed });
      return out.cases.map((c) => c.scoredTrace!.id);
    };
    const first = await ids(1, 's1.json');
    expect(first).toHaveLength(5);
    expect(await ids(1, 's2.json')).toEqual(first);
    expect(await ids(2, 's3.json')).not.toEqual(first);
  });

  it('--save-failures writes the 2 failed traces as cases that load and fail when run against the agent', async () => {
    const res = await cli(['score', 'traces/prod.otlp.json', '--json', 'f.json', '--save-failures', 'evals/prod-misses.eval.yaml']);
    expect(res.code, res.stdout + res.stderr).toBe(1);
    expect(res.stderr).toContain('wrote evals/prod-misses.eval.yaml: 2 cases from the failed traces, against target "agent"');
    const saved = load(readFileSync(join(dir, 'evals/prod-misses.eval.yaml'), 'utf8')) as {
      suite: string;
      target: string;
      cases: Array<{ input: string; assert: unknown[]; metadata: { trace: { id: string } }; reference?: string }>;
    };
    expect(saved).toMatchObject({ suite: 'prod-misses', target: 'agent' });
    expect(saved.cases.map((c) => [c.input, c.metadata.trace.id, c.reference])).toEqual(FAILED.map((k) => [recordedRun(k).input, traceIds.get(k), undefined]));
    expect(saved.cases[0]!.assert).toEqual([
      { type: 'calledTool', tool: 'lookup_order', severity: 'gate' },
      { type: 'judge', criteria: 'the reply says where the order is', severity: 'gate' },
    ]);

    const list = await cli(['list', 'evals/prod-misses.eval.yaml']);
    expect(list.code, list.stdout + list.stderr).toBe(0);
    expect(list.stdout).toContain(`prod-misses/${saved.cases[1]!.metadata.trace.id}`);

    const agentBefore = agentRequests();
    const run = await cli(['run', 'evals/prod-misses.eval.yaml', '--no-cache', '--json', 'again.json']);
    expect(run.code, run.stdout + run.stderr).toBe(1);
    // The agent ran again (2 model calls a case), and its answers failed again.
    expect(agentRequests() - agentBefore).toBe(2 * FAILED.length);
    const again = readResults(join(dir, 'again.json'));
    expect(again.cases.map((c) => c.verdict)).toEqual(['failed', 'failed']);
    expect(again.cases.map((c) => c.trials[0]!.reply)).toEqual(FAILED.map((k) => recordedRun(k).reply));
  });

  it('a scoring file naming an unknown assertion is exit 2 naming the file and what was expected', async () => {
    const res = await runCliInProcess(['score', join(dir, 'traces/prod.otlp.json'), '--scoring', 'evals/bad.score.yaml'], {
      cwd: writeProject({ 'evals.config.mjs': 'export default {};\n', 'evals/bad.score.yaml': 'name: bad\nassert:\n  - { type: calledToool, tool: x }\n' }),
      env: { OPENAI_BASE_URL: fake.url },
    });
    expect(res.code, res.stdout + res.stderr).toBe(2);
    expect(res.stderr).toContain('evals/bad.score.yaml:3');
    expect(res.stderr).toMatch(/unknown assertion type "calledToool": did you mean "calledTool"\? \(known: .*calledTool.*\)/);
    expect(res.stderr).not.toMatch(STACK_FRAME);
  });
});
