/**
 * A judge answer out of contract — not JSON, a score off the scale, no reason, a dimension
 * missing — is an assertion error that fails as a gate, named, with the raw text kept; the trial
 * fails. Pass is computed in code: a judge's own "pass" flag means nothing.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { JudgeAssertionSpec } from '../../src/judges/spec.js';
import { executeTrial } from '../../src/runner/loop/trial.js';
import { functionTarget } from '../../src/targets/function-target.js';
import { startFakeAnthropic } from '../support/fake-anthropic.js';
import { startFakeOpenAI } from '../support/fake-openai.js';
import type { FakeProvider, Scripted } from '../support/fake-server.js';
import { judgeRef, judgeService, plannedCase, pricing, REPLY, type ProviderName } from './helpers.js';

const fakes: FakeProvider[] = [];
afterEach(async () => {
  await Promise.all(fakes.splice(0).map((f) => f.close()));
});

async function trialWith(provider: ProviderName, answer: Scripted, assertion: JudgeAssertionSpec) {
  const f = provider === 'openai' ? await startFakeOpenAI({ script: [answer] }) : await startFakeAnthropic({ script: [answer] });
  fakes.push(f);
  const judges = judgeService({ judge: judgeRef(provider, f.url) });
  const c = plannedCase({ assertions: [{ type: 'contains', value: 'shipped' }, assertion] });
  const trial = await executeTrial(c, 0, {
    target: functionTarget('agent', () => REPLY),
    judges,
    pricing,
    skipJudgesOnGateFailure: true,
    signal: new AbortController().signal,
  });
  return { trial, judged: trial.assertions[1]!, fake: f };
}

const rubric: JudgeAssertionSpec = { type: 'judge', criteria: 'states the shipping status', label: 'status rubric' };
const withDims: JudgeAssertionSpec = { type: 'judge', criteria: 'states the shipping status', label: 'status rubric', dimensions: { accuracy: 0.5, tone: 0.5 } };

const INVALID: Array<{ name: string; answer: Scripted; assertion: JudgeAssertionSpec; raw: string; detail: RegExp }> = [
  { name: 'a non-JSON reply', answer: { text: 'Looks great to me, I would give it full marks.' }, assertion: rubric, raw: 'Looks great to me, I would give it full marks.', detail: /not JSON/ },
  {
    name: 'a score of 1.7',
    answer: { json: { score: 1.7, reason: 'excellent', evidence: [] } },
    assertion: rubric,
    raw: JSON.stringify({ score: 1.7, reason: 'excellent', evidence: [] }),
    detail: /score.*1\.7/,
  },
  {
    name: 'a missing reason',
    answer: { json: { score: 0.9, evidence: [] } },
    assertion: rubric,
    raw: JSON.stringify({ score: 0.9, evidence: [] }),
    detail: /reason/,
  },
  {
    name: 'a missing dimension',
    answer: { json: { score: 0.9, reason: 'fine', evidence: [], dimensions: { accuracy: 0.9 } } },
    assertion: withDims,
    raw: JSON.stringify({ score: 0.9, reason: 'fine', evidence: [], dimensions: { accuracy: 0.9 } }),
    detail: /tone/,
  },
];

describe('an invalid judge answer is a gate error with the raw text kept', () => {
  it.each(INVALID)('$name', async ({ answer, assertion, raw, detail }) => {
    const { trial, judged, fake } = await trialWith('openai', answer, assertion);
    expect(fake.count).toBe(1);
    expect(judged.status).toBe('error');
    expect(judged.severity).toBe('gate');
    // The label is the name; the message leads with what was asked (reporters print the label once).
    expect(judged.name).toBe('status rubric');
    expect(judged.message.startsWith('judge "states the shipping status": ')).toBe(true);
    expect(judged.message).toContain('judge response invalid');
    expect(judged.message).toMatch(detail);
    expect(judged.raw).toBe(raw);
    expect(judged.score).toBe(0);
    // The tokens were spent even though the answer was unusable.
    expect(judged.judge?.usage.calls).toBe(1);
    expect(trial.verdict).toBe('failed');
    expect(trial.score).toBe(0);
  });

  it('an assertion declared soft is still forced to a gate when its judge answers out of contract', async () => {
    const { trial, judged } = await trialWith('openai', { json: { score: 1.7, reason: 'x', evidence: [] } }, { ...rubric, severity: 'soft' });
    expect(judged).toMatchObject({ status: 'error', severity: 'gate' });
    expect(trial.verdict).toBe('failed');
  });

  it('a judge that throws (HTTP 400) is an error that fails the trial as a gate', async () => {
    const { trial, judged } = await trialWith('openai', { status: 400, message: 'bad request from fake' }, rubric);
    expect(judged.status).toBe('error');
    expect(judged.severity).toBe('gate');
    // The label is the name; the message leads with what was asked (reporters print the label once).
    expect(judged.name).toBe('status rubric');
    expect(judged.message.startsWith('judge "states the shipping status": ')).toBe(true);
    expect(trial.verdict).toBe('failed');
  });

  it("a judge's own pass flag is ignored: pass is score >= threshold, computed in code", async () => {
    const { judged, trial } = await trialWith('openai', { text: JSON.stringify({ score: 0.3, reason: 'weak', evidence: [], pass: true }) }, rubric);
    // `pass` is an unknown field of a text answer; the score decides.
    expect(judged).toMatchObject({ status: 'failed', severity: 'soft', score: 0.3 });
    expect(trial.verdict).toBe('scored');
  });
});

describe('answers without structured output', () => {
  it('OpenAI: the first JSON object in prose or a code fence is taken', async () => {
    const text = 'Here is my verdict:\n```json\n{"score": 0.8, "reason": "mentions {shipping}", "evidence": ["shipped"]}\n```\nThanks!';
    const { judged, trial } = await trialWith('openai', { text }, rubric);
    expect(judged).toMatchObject({ status: 'passed', score: 0.8, reason: 'mentions {shipping}', raw: text });
    expect(trial.verdict).toBe('passed');
  });

  it('Anthropic: a text reply (no forced tool call) holding JSON is still read', async () => {
    const text = 'Verdict: {"score": 0.8, "reason": "ok", "evidence": []}';
    const { judged } = await trialWith('anthropic', { text }, rubric);
    expect(judged).toMatchObject({ status: 'passed', score: 0.8 });
  });

  it('Anthropic: a non-JSON text reply is "judge response invalid" with the raw text kept', async () => {
    const text = 'I cannot grade this.';
    const { judged, trial } = await trialWith('anthropic', { text }, rubric);
    expect(judged.status).toBe('error');
    expect(judged.severity).toBe('gate');
    expect(judged.message).toContain('judge response invalid');
    expect(judged.raw).toBe(text);
    expect(trial.verdict).toBe('failed');
  });

  it('Anthropic: a forced-tool answer with a score of 1.7 is invalid, raw kept', async () => {
    const { judged } = await trialWith('anthropic', { json: { score: 1.7, reason: 'x', evidence: [] } }, rubric);
    expect(judged).toMatchObject({ status: 'error', severity: 'gate' });
    expect(judged.message).toContain('judge response invalid');
    expect(JSON.parse(judged.raw!)).toEqual({ score: 1.7, reason: 'x', evidence: [] });
  });
});
