/**
 * `agent-evals score <traces…> --judge-batch`, in-process through the front door as the command runs
 * it (scoring files loaded, traces read and planned, `openRun(…, 'score').score`, the JSON reporter at
 * `<outputDir>/scored.json`), against the fake OpenAI Batch API; polls of the batch wait on an injected
 * sleep, not the clock. The judges of the scored traces go to the provider in one batch, no judge call
 * goes out live and no target is called; the batch's verdicts are the ones in scored.json.
 */
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { loadScorings } from '../../src/cli/score-scorings.js';
import { SCORED_FILE } from '../../src/cli/score.js';
import { resolveConfig } from '../../src/config/load-config.js';
import { planDefaults } from '../../src/config/plan-defaults.js';
import { resolveRunSettings } from '../../src/config/run-settings.js';
import { jsonReporter } from '../../src/report/json.js';
import { openRun } from '../../src/runner/start-run.js';
import { readTraces } from '../../src/suite/read-traces.js';
import { planScored } from '../../src/suite/score-plan.js';
import { removeTempDirs } from '../support/cli.js';
import { startFakeOpenAI, type FakeOpenAI } from '../support/fake-openai.js';
import { faultGuards } from '../support/run-in-process.js';
import { readResults } from '../support/results-helpers.js';
import { writeProject } from '../support/temp-project.js';

const env = { OPENAI_API_KEY: 'sk-test-score-batch-0123456789' };
let fake: FakeOpenAI | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});
afterAll(removeTempDirs);

const SCORING = `name: support
where: { agent: support }
assert:
  - { type: contains, value: shipped, severity: gate }
  - { type: judge, criteria: the reply is polite, severity: gate }
`;
const line = (id: string, input: string, reply: string, agent = 'support') => JSON.stringify({ id, input, reply, usage: { inputTokens: 100, outputTokens: 20 }, metadata: { agent } });
const TRACES = [
  line('t1', 'where is A-1?', 'Your order A-1 has shipped.'),
  line('t2', 'I am angry, where is A-2?', 'Order shipped. Stop whining.'),
  line('t3', 'where is my order?', 'I cannot find it.'),
  line('t4', 'where is A-4?', 'Your order A-4 has shipped.', 'billing'),
  line('t5', 'status of A-5 please', 'Your order A-5 has shipped.'),
].join('\n');

/** What `agent-evals score traces/prod.jsonl --judge-batch --no-cache` does, with the batch's polls on `sleep`. */
async function scoreWithBatch() {
  // The judge finds a reply that tells the user to stop whining impolite.
  fake = await startFakeOpenAI({
    batch: { pollsInProgress: 2 },
    script: (body: unknown) => ({ json: { score: JSON.stringify(body).includes('whining') ? 0 : 1, reason: 'r', evidence: [] } }),
  });
  const dir = writeProject({ 'evals/support.score.yaml': SCORING, 'traces/prod.jsonl': TRACES });
  let targetCalls = 0;
  const config = resolveConfig(
    {
      evals: ['evals/**/*.eval.yaml'],
      outputDir: '.agent-evals',
      // The project's own target: a score puts each trace in its place, so it is never called.
      targets: { agent: () => (targetCalls++, 'live answer') },
      judge: { provider: 'openai', model: 'gpt-4.1-mini', baseURL: fake.url, maxRetries: 0 },
    },
    dir,
    'evals.config.ts',
    env,
  );
  const scorings = await loadScorings(config, {}, dir);
  const read = await readTraces(['traces/prod.jsonl'], { cwd: dir });
  const plan = planScored(scorings, read.traces, planDefaults(config));
  const settings = resolveRunSettings(config, { judgeBatch: true, cache: false }, env);
  const progress: string[] = [];
  const waits: number[] = [];
  const path = join(config.outputDir, SCORED_FILE);
  faultGuards.begin();
  try {
    const outcome = await openRun(settings, plan.cases, 'score').score({
      traces: new Map([...plan.scored].map(([key, { trace }]) => [key, trace])),
      scoredFrom: { files: read.files, traces: read.traces.length, unmatched: plan.unmatched.length, scoring: scorings.map((s) => s.file) },
      reporters: [{ name: 'json', ...jsonReporter({ path, outputDir: config.outputDir, version: 'test' }) }],
      problem: () => {},
      progress: (l) => void progress.push(l),
      batchPolling: { sleep: async (ms) => void waits.push(ms) },
      interrupt: new AbortController().signal,
      argv: [],
      version: 'test',
    });
    return { outcome, results: readResults(path), progress, waits, targetCalls: () => targetCalls };
  } finally {
    faultGuards.end();
  }
}

describe('agent-evals score --judge-batch', () => {
  it("sends the scored traces' judges in one batch, reads its verdicts into scored.json, and calls no target and no judge live", async () => {
    const { outcome, results, progress, waits, targetCalls } = await scoreWithBatch();
    const f = fake!;
    // t3's gate failed (its judge is not asked) and t4 matched no `where`: three judgments, in one batch.
    expect(f.batches.creates).toEqual([expect.objectContaining({ lines: 3 })]);
    const id = f.batches.creates[0]!.id;
    expect(progress.some((l) => l.includes(`judge batch ${id} (openai:gpt-4.1-mini): 3 requests submitted`))).toBe(true);
    // Polled on the schedule (validating, then in progress over two polls), waiting on the test's sleep.
    expect(waits).toEqual([2_000, 4_000, 8_000]);
    // Nothing live: no judge call outside the batch, no target.
    expect(f.requests.filter((r) => r.path === '/v1/chat/completions')).toEqual([]);
    expect(targetCalls()).toBe(0);
    expect(results.summary.usage.target.calls).toBe(0);

    expect(outcome.exitCode).toBe(1);
    expect([...outcome.failed].sort()).toEqual(['support/t2', 'support/t3']);
    expect(results.run.scoredFrom).toMatchObject({ files: ['traces/prod.jsonl'], traces: 5, unmatched: 1 });
    const judged = (id: string) => results.cases.find((c) => c.id === id)!.trials[0]!.assertions.find((a) => a.kind === 'judge')!;
    expect(results.cases.map((c) => [c.id, c.verdict])).toEqual([
      ['t1', 'passed'],
      ['t2', 'failed'],
      ['t3', 'failed'],
      ['t5', 'passed'],
    ]);
    // Each verdict is the batch's answer, marked as answered through the batch.
    for (const [id, status, score] of [
      ['t1', 'passed', 1],
      ['t2', 'failed', 0],
      ['t5', 'passed', 1],
    ] as const)
      expect([judged(id).status, judged(id).score, judged(id).judge?.batch]).toEqual([status, score, true]);
    expect(judged('t3').status).toBe('skipped');
    expect(results.summary.usage.judge.calls).toBe(3);
    expect(results.summary.uncollectedBatches).toBeUndefined();
  });
});
