/**
 * A judge read inside `check` (`.result()`) runs then, at most once: the runner reuses that answer.
 * It runs only if the gates recorded before it pass; otherwise it is skipped at zero requests.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { executeTrial } from '../../src/runner/loop/trial.js';
import { functionTarget } from '../../src/targets/function-target.js';
import type { AssertionResult } from '../../src/core/results-schema.js';
import type { PlannedCase } from '../../src/suite/plan.js';
import { startFakeOpenAI } from '../support/fake-openai.js';
import type { FakeProvider } from '../support/fake-server.js';
import { judgeRef, judgeService, plannedCase, pricing, REPLY } from './helpers.js';

let fake: FakeProvider | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

async function trial(check: PlannedCase['check']) {
  fake = await startFakeOpenAI({ script: () => ({ json: { score: 0.8, reason: 'states the status', evidence: ['"shipped yesterday"'] } }) });
  const judges = judgeService({ judge: judgeRef('openai', fake.url) });
  return executeTrial(plannedCase({ check }), 0, { target: functionTarget('agent', () => REPLY), judges, pricing, skipJudgesOnGateFailure: true, signal: new AbortController().signal });
}

describe('reading a judge inside check()', () => {
  it('gives the verdict to the check, and the runner does not ask again', async () => {
    let seen: AssertionResult | undefined;
    const result = await trial(async (t) => {
      t.contains('shipped');
      const handle = t.judge().criteria('States the shipping status.');
      seen = await handle.result();
      expect(await handle.result()).toBe(seen); // memoized
    });
    expect(seen).toMatchObject({ status: 'passed', score: 0.8 });
    expect(fake!.count).toBe(1);
    expect(result.assertions[1]).toMatchObject({ kind: 'judge', status: 'passed', score: 0.8 });
    expect(result.usage.judge.calls).toBe(1);
  });

  it('is skipped, with no request, when a gate recorded before it failed', async () => {
    let seen: AssertionResult | undefined;
    const result = await trial(async (t) => {
      t.contains('never in the reply');
      seen = await t.judge().criteria('States the shipping status.').result();
    });
    expect(seen).toMatchObject({ status: 'skipped' });
    expect(fake!.count).toBe(0);
    expect(result.verdict).toBe('failed');
    expect(result.assertions[1]).toMatchObject({ status: 'skipped' });
  });
});
