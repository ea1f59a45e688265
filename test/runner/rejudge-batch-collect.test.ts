/**
 * `rejudgeRecorded` with `collect` (what `agent-evals rejudge --batch <id>` runs), in-process against the
 * fake OpenAI Batch API: the recorded uncollected batch is waited for on the polling schedule within its
 * bound (an injected sleep: no clock), and its answers judge the calls they were made for; answers that no
 * call matches (a criterion edited since the run) are named, and those calls are judged anew.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { UserConfig } from '../../src/config/define-config.js';
import { UserError } from '../../src/core/errors.js';
import type { CaseResult, Results } from '../../src/core/results-schema.js';
import { createJudgeService } from '../../src/judges/create-judge-service.js';
import { removeTempDirs } from '../support/cli.js';
import { startFakeOpenAI, type FakeOpenAI } from '../support/fake-openai.js';
import { rejudgeInProcess, runInProcess } from '../support/run-in-process.js';

const env = { OPENAI_API_KEY: 'sk-test-collect-0123456789' };
let fake: FakeOpenAI | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});
afterAll(removeTempDirs);

const EVALS = (criteria = 'the reply answers the question') => `suite: s
target: agent
cases:
  - { id: c0, input: "0", assert: [{ type: judge, criteria: ${criteria}, severity: gate }] }
  - { id: c1, input: "1", assert: [{ type: judge, criteria: ${criteria}, severity: gate }] }
`;

/** A `--judge-batch` run whose one failing poll passes the (1 ms) poll-failure bound; the batch stays at the fake, `validating`. */
async function uncollected(pollsInProgress: number) {
  fake = await startFakeOpenAI({
    batch: { failingPolls: 1, pollsInProgress },
    script: (body: { messages: Array<{ content: unknown }> }) => {
      const n = Number(/answer (\d+)/.exec(String(body.messages.at(-1)!.content))?.[1]);
      return { json: { score: n === 0 ? 1 : 0.2, reason: `answer ${n}`, evidence: [] } };
    },
  });
  const config: UserConfig = {
    targets: { agent: (input: string) => `answer ${input}` },
    judge: { provider: 'openai', model: 'gpt-4.1-mini', baseURL: fake.url, maxRetries: 0 },
    trace: 'full',
    earlyStop: false,
  };
  const run = await runInProcess({
    files: { 'evals/s.eval.yaml': EVALS() },
    config,
    judges: (settings, deps) => createJudgeService({ settings: settings.judging, ...deps, env }),
    flags: { judgeBatch: true, cache: false },
    batchPolling: { pollFailureMs: 1, sleep: async () => {} },
  });
  expect(run.results.summary.uncollectedBatches).toHaveLength(1);
  return { dir: run.dir, config, recorded: run.results };
}

/** The collect, its waits recorded by the injected sleep. */
async function collect(dir: string, config: UserConfig, recorded: Results, waitMs: number) {
  const waits: number[] = [];
  const sleep = async (ms: number) => void waits.push(ms);
  const r = await rejudgeInProcess({ dir, config, recorded, env, flags: { judgeBatch: true }, collect: { batch: recorded.summary.uncollectedBatches![0]!, waitMs }, sleep });
  return { ...r, waits };
}

const verdicts = (cases: CaseResult[]) => Object.fromEntries(cases.map((c) => [c.id, [c.verdict, ...c.trials.flatMap((t) => t.assertions.map((a) => `${a.status} ${a.score}`))]]));

describe('rejudge --batch (collect)', () => {
  it('waits on the polling schedule while the batch is in progress, then answers every call from it', async () => {
    const { dir, config, recorded } = await uncollected(2);
    const r = await collect(dir, config, recorded, 60_000);
    // validating → in_progress (0/2) → in_progress (1/2) → completed: two waits, doubling from 2 s.
    expect(r.waits).toEqual([2_000, 4_000]);
    expect(r.progress.filter((l) => l.includes('waiting to collect it'))).toHaveLength(2);
    expect(verdicts(r.full)).toEqual({ c0: ['passed', 'passed 1'], c1: ['failed', 'failed 0.2'] });
    expect(r.outcome.exitCode).toBe(1);
    expect(fake!.batches.creates).toHaveLength(1);
    expect(r.warnings.filter((w) => w.includes('judge batch'))).toEqual([]);
  });

  it('stops waiting at --batch-wait: a UserError before any trial is judged, no new batch', async () => {
    const { dir, config, recorded } = await uncollected(2);
    // One 2 s wait fits the bound; the batch is still at 1/2 after it.
    const err = await collect(dir, config, recorded, 2_000).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UserError);
    expect((err as Error).message).toMatch(/is still in progress at the provider \(1\/2 done\) after 2 s of waiting/);
    expect(fake!.batches.creates).toHaveLength(1);
  });

  it('answers no call whose request changed since the run: it is judged anew, and the unused answers are named', async () => {
    const { dir, config, recorded } = await uncollected(1);
    // The criterion is the judge's, not the case's: the case is still re-judged, its request differs.
    writeFileSync(join(dir, 'evals/s.eval.yaml'), EVALS('the reply is correct'));
    const r = await collect(dir, config, recorded, 60_000);
    expect(r.warnings.some((w) => w.includes(`judge batch ${recorded.summary.uncollectedBatches![0]!.id}: 2 of its answers matched no judgment of this re-judge`))).toBe(true);
    // Judged in a new batch instead.
    expect(fake!.batches.creates).toHaveLength(2);
    expect(verdicts(r.full)).toEqual({ c0: ['passed', 'passed 1'], c1: ['failed', 'failed 0.2'] });
  });
});
