/**
 * Judges stay the same across a matrix: a judge whose model is also a matrix target's model is
 * warned about (self-preference) before the run begins.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeOpenAI } from '../support/fake-openai.js';
import type { FakeProvider } from '../support/fake-server.js';
import { runInProcess } from '../support/run-in-process.js';
import { createJudgeService } from '../../src/judges/create-judge-service.js';
import { kinship, modelFamily, selfPreferenceWarnings } from '../../src/judges/self-preference.js';

let fake: FakeProvider | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

const env = { OPENAI_API_KEY: 'sk-test-dummy-key-000000' };
const EVALS = 'suite: s\nmatrix: { target: [gpt, other] }\ncases:\n  - id: one\n    input: hi\n    assert:\n      - { type: judge, criteria: is polite }\n';

describe('self-preference warning', () => {
  it('names the judge and the matrix target sharing its model, before the run begins', async () => {
    fake = await startFakeOpenAI({ script: () => ({ text: 'hello' }) });
    const events: string[] = [];
    const model = { provider: 'openai' as const, model: 'gpt-4.1-mini', baseURL: fake.url };
    await runInProcess({
      files: { 'evals/s.eval.yaml': EVALS },
      config: { targets: { gpt: { model }, other: () => 'hello' }, judge: { ...model, maxRetries: 0 } },
      flags: { cache: false },
      env,
      judges: (settings, deps) => createJudgeService({ settings: settings.judging, ...deps, env }),
      reporters: () => [{ onBegin: () => void events.push('begin'), onWarning: (m: string) => void events.push(m) }],
    });
    const warning = events.findIndex((e) => e.includes('judge openai:gpt-4.1-mini is also the model of matrix target "gpt"'));
    expect(warning).toBeGreaterThanOrEqual(0);
    expect(warning).toBeLessThan(events.indexOf('begin'));
    expect(events.filter((e) => e.includes('"other"'))).toEqual([]);
  });

  it('matches by model name across providers; targets without a model are never named', () => {
    expect(selfPreferenceWarnings([{ name: 'a', model: 'openai:gpt-4.1' }, { name: 'fn' }], ['azure:gpt-4.1'])).toHaveLength(1);
    expect(selfPreferenceWarnings([{ name: 'a', model: 'openai:gpt-4.1' }], ['anthropic:claude-sonnet-4'])).toEqual([]);
  });
});

describe('model families', () => {
  it('a dated snapshot is the same model; one family line is the same family; other lines are unrelated', () => {
    expect(kinship('openai:gpt-5.4-mini', 'openai:gpt-5.4-mini-2026-03-01')).toEqual({ kind: 'model' });
    expect(kinship('anthropic:claude-sonnet-4-5', 'anthropic:claude-sonnet-4-5-20250929')).toEqual({ kind: 'model' });
    expect(kinship('openai:gpt-5.4-mini', 'openrouter:openai/gpt-5.5')).toEqual({ kind: 'family', family: 'gpt-5' });
    expect(kinship('anthropic:claude-haiku-4-5', 'anthropic:claude-sonnet-4-5')).toEqual({ kind: 'family', family: 'claude-4' });
    expect(kinship('openai:gpt-5.4-mini', 'openai:gpt-4.1')).toBeUndefined();
    expect(kinship('openai:gpt-5.4-mini', 'anthropic:claude-sonnet-5')).toBeUndefined();
    expect(modelFamily('mistral:mistral-large-latest')).toBe('mistral');
  });

  it('a matrix target of the judge family is warned about, naming both', () => {
    const [w, ...rest] = selfPreferenceWarnings([{ name: 'new', model: 'openai:gpt-5.5' }], ['openai:gpt-5.4-mini']);
    expect(rest).toEqual([]);
    expect(w).toContain('judge openai:gpt-5.4-mini is of one family (gpt-5) with matrix target "new" (openai:gpt-5.5)');
  });
});

describe('self-judging warning during the run', () => {
  const ONE = 'suite: s\ntarget: gpt\ncases:\n  - id: one\n    input: hi\n    assert:\n      - { type: judge, criteria: is polite }\n';
  async function run(judgeModel: string, config: { selfJudgingWarning?: boolean } = {}) {
    fake = await startFakeOpenAI({ script: (body) => (body.response_format ? { json: { score: 1, reason: 'polite', evidence: [] } } : { text: 'hello' }) });
    const { warnings } = await runInProcess({
      files: { 'evals/s.eval.yaml': ONE },
      config: {
        targets: { gpt: { model: { provider: 'openai', model: 'gpt-5.4-mini-2026-03-01', baseURL: fake.url } } },
        judge: { provider: 'openai', model: judgeModel, baseURL: fake.url, maxRetries: 0 },
        ...config,
      },
      flags: { cache: false },
      env,
      judges: (settings, deps) => createJudgeService({ settings: settings.judging, ...deps, env }),
    });
    return warnings.filter((w) => w.includes('the judge '));
  }

  it('a judge that is the target model under its dated name warns, naming both', async () => {
    expect(await run('gpt-5.4-mini')).toEqual([expect.stringContaining("the judge openai:gpt-5.4-mini is also the target's model (openai:gpt-5.4-mini-2026-03-01)")]);
  });

  it('a judge of the target family warns, naming both and the family', async () => {
    expect(await run('gpt-5.5')).toEqual([expect.stringContaining("the judge openai:gpt-5.5 and the target's model openai:gpt-5.4-mini-2026-03-01 are of one family (gpt-5)")]);
  });

  it('selfJudgingWarning: false silences it', async () => {
    expect(await run('gpt-5.4-mini', { selfJudgingWarning: false })).toEqual([]);
  });

  it('selfJudgingWarning: false silences the matrix warning too', async () => {
    fake = await startFakeOpenAI({ script: () => ({ text: 'hello' }) });
    const model = { provider: 'openai' as const, model: 'gpt-4.1-mini', baseURL: fake.url };
    const { warnings } = await runInProcess({
      files: { 'evals/s.eval.yaml': EVALS },
      config: { targets: { gpt: { model }, other: () => 'hello' }, judge: { ...model, maxRetries: 0 }, selfJudgingWarning: false },
      flags: { cache: false },
      env,
      judges: (settings, deps) => createJudgeService({ settings: settings.judging, ...deps, env }),
    });
    // Once its shutdown date has passed the model is warned about as such: not a self-judging warning.
    expect(warnings.filter((w) => w.includes('gpt-4.1-mini') && !w.includes(' shut down on '))).toEqual([]);
  });
});
