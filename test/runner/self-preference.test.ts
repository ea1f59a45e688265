/**
 * Judges stay the same across a matrix: a judge whose model is also a matrix target's model is
 * warned about (self-preference) before the run begins.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeOpenAI } from '../support/fake-openai.js';
import type { FakeProvider } from '../support/fake-server.js';
import { runInProcess } from '../support/run-in-process.js';
import { createJudgeService } from '../../src/runner/create-judge-service.js';
import { selfPreferenceWarnings } from '../../src/runner/self-preference.js';

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
