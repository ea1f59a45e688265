/**
 * An empty reply fails its judged assertions without a judge call (zero judge tokens), reported
 * as "empty reply"; `judgeEmptyReplies: true` asks the judge anyway.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeOpenAI } from '../support/fake-openai.js';
import type { FakeProvider } from '../support/fake-server.js';
import { runInProcess } from '../support/run-in-process.js';
import { createJudgeService } from '../../src/judges/create-judge-service.js';

let fake: FakeProvider | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

const env = { OPENAI_API_KEY: 'sk-test-dummy-key-000000' };
const EVALS = 'suite: s\ntarget: agent\ncases:\n  - id: one\n    input: hi\n    assert:\n      - { type: judge, criteria: is polite }\n';

async function runWith(reply: string, judgeEmptyReplies?: boolean) {
  fake = await startFakeOpenAI({ script: () => ({ json: { score: 1, reason: 'polite', evidence: [] } }) });
  return runInProcess({
    files: { 'evals/s.eval.yaml': EVALS },
    config: {
      targets: { agent: () => reply },
      judge: { provider: 'openai', model: 'gpt-4.1-mini', baseURL: fake.url, maxRetries: 0 },
      ...(judgeEmptyReplies !== undefined ? { judgeEmptyReplies } : {}),
    },
    flags: { cache: false },
    env,
    judges: (settings, deps) => createJudgeService({ settings: settings.judging, ...deps, env }),
  });
}

describe('empty reply', () => {
  it('fails a judged assertion with "empty reply" and makes zero judge calls', async () => {
    const { results } = await runWith('  \n');
    expect(fake!.count).toBe(0);
    const a = results.cases[0]!.trials[0]!.assertions[0]!;
    expect(a).toMatchObject({ kind: 'judge', status: 'failed', score: 0 });
    expect(a.message).toContain('empty reply');
    expect(a.judge).toBeUndefined();
    // A judged assertion keeps its severity (soft by default): the case scored 0, not passed.
    expect(results.cases[0]!.verdict).toBe('scored');
    expect(results.cases[0]!.score.mean).toBe(0);
  });

  it('asks the judge about a reply that is not empty', async () => {
    const { results } = await runWith('Hello there!');
    expect(fake!.count).toBe(1);
    expect(results.cases[0]!.trials[0]!.assertions[0]).toMatchObject({ status: 'passed' });
  });

  it('judgeEmptyReplies: true asks the judge about an empty reply too', async () => {
    const { results } = await runWith('', true);
    expect(fake!.count).toBe(1);
    expect(results.cases[0]!.trials[0]!.assertions[0]).toMatchObject({ status: 'passed' });
  });
});
