/**
 * Judge resolution in process, including the TypeScript levels: `t.judge(model)` on one assertion
 * > `t.useJudge(model)` for the case > the case's `judge:` > config; `--judge` (override) over all.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { resolveJudge } from '../../src/judges/resolve.js';
import { executeTrial } from '../../src/runner/loop/trial.js';
import type { CheckApi } from '../../src/suite/check-api.js';
import { functionTarget } from '../../src/targets/function-target.js';
import { startFakeOpenAI } from '../support/fake-openai.js';
import type { FakeProvider } from '../support/fake-server.js';
import { judgeService, plannedCase, pricing, userText } from './helpers.js';

let fake: FakeProvider | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

const ref = (model: string) => ({ provider: 'openai' as const, model, baseURL: fake!.url });

async function modelsAsked(check: (t: CheckApi) => void, opts: { override?: string; caseJudge?: string } = {}) {
  fake = await startFakeOpenAI({ script: () => ({ json: { score: 1, reason: 'ok', evidence: [] } }) });
  const judges = judgeService({ judge: ref('config-judge'), ...(opts.override ? { override: opts.override } : {}) });
  const c = plannedCase({ check, ...(opts.caseJudge ? { judge: ref(opts.caseJudge) } : {}) });
  const trial = await executeTrial(c, 0, { target: functionTarget('agent', () => 'shipped'), judges, pricing, skipJudgesOnGateFailure: true, signal: new AbortController().signal });
  expect(
    trial.assertions.every((a) => a.status === 'passed'),
    JSON.stringify(trial.assertions),
  ).toBe(true);
  // criteria text → model asked
  return Object.fromEntries(fake.bodies.map((b) => [/CRIT-\w+/.exec(userText(b))![0], b.model]));
}

describe('resolution with the TypeScript surface', () => {
  it('t.judge(model) > t.useJudge(model) > case judge > config', async () => {
    const asked = await modelsAsked(
      (t) => {
        t.useJudge(ref('usejudge-judge'));
        t.judge(ref('assertion-judge')).criteria('CRIT-ASSERTION');
        t.judge().criteria('CRIT-USEJUDGE');
        t.expectJudge('CRIT-EXPECT');
      },
      { caseJudge: 'case-judge' },
    );
    expect(asked).toEqual({ 'CRIT-ASSERTION': 'assertion-judge', 'CRIT-USEJUDGE': 'usejudge-judge', 'CRIT-EXPECT': 'usejudge-judge' });
  });

  it('without useJudge, the case judge and then the config judge', async () => {
    expect(await modelsAsked((t) => void t.judge().criteria('CRIT-CASE'), { caseJudge: 'case-judge' })).toEqual({ 'CRIT-CASE': 'case-judge' });
    await fake!.close();
    expect(await modelsAsked((t) => void t.judge().criteria('CRIT-CONFIG'))).toEqual({ 'CRIT-CONFIG': 'config-judge' });
  });

  it('the run override beats every level', () => {
    expect(resolveJudge({ override: 'openai:o', assertion: 'openai:a', checkApi: 'openai:u', caseOrSuite: 'openai:c', config: 'openai:g' })?.ref).toBe('openai:o');
    expect(resolveJudge({ assertion: 'openai:a', checkApi: 'openai:u', caseOrSuite: 'openai:c', config: 'openai:g' })?.ref).toBe('openai:a');
    expect(resolveJudge({ checkApi: 'openai:u', caseOrSuite: 'openai:c', config: 'openai:g' })?.ref).toBe('openai:u');
    expect(resolveJudge({ caseOrSuite: 'openai:c', config: 'openai:g' })?.ref).toBe('openai:c');
    expect(resolveJudge({ config: 'openai:g' })?.ref).toBe('openai:g');
    expect(resolveJudge({})?.ref).toBeUndefined();
  });
});
