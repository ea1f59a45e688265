/**
 * The judge path's keys and fingerprints are byte-for-byte what they were before the judge path
 * was made cheaper (memoized fingerprints, one-shot hashing, prompt pieces built once): the values
 * below were computed by the code before that change. A judge cache written by an older run
 * still answers (the keys are seeded on disk and the provider refuses every call), and results'
 * judge fingerprints and case fingerprints still compare equal to an older baseline's.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { AgentRun } from '../../src/core/agent-run.js';
import type { Criterion, JudgeRequest } from '../../src/core/judge-port.js';
import { JudgeCache } from '../../src/judges/cache.js';
import { inferenceJudge } from '../../src/judges/inference-judge.js';
import { judgeCalledWith, judgeFingerprint, type JudgedAs, type JudgeWho } from '../../src/judges/judge-fingerprint.js';
import { judgeIdentity } from '../../src/judges/judge-identity.js';
import type { JudgeAssertionSpec } from '../../src/judges/spec.js';
import type { Provider } from '../../src/providers/types.js';
import { caseFingerprint } from '../../src/suite/fingerprint.js';
import { removeTempDirs, tempDir } from '../support/cli.js';
import { makePlannedCase } from '../support/planned-case.js';

afterAll(removeTempDirs);

const RUN: AgentRun = {
  reply: 'Order A1 shipped on Monday.',
  model: 'openai:gpt-4.1-mini',
  steps: [{ text: 'Looking it up.', toolCalls: [{ name: 'find_order', args: { id: 'A1' }, result: { status: 'shipped' }, durationMs: 12 }] }],
};
const base = { output: RUN.reply, input: 'Where is order A1?', run: RUN, tracePolicy: 'safe' as const };
const rubric: Criterion = { kind: 'rubric', criteria: 'Gives the status.', scale: 1, dimensions: [] };

/** Representative requests: a plain rubric, a 1..10 rubric with dimensions and a case reference, choices, a conversation, factuality, pairwise; with and without a persona and temperature. */
const SCORED = '{"score":1,"reason":"ok","evidence":[]}';
const REQUESTS: Array<[string, JudgeRequest, { system?: string; answer: string }]> = [
  ['rubric with instructions', { ...base, criterion: rubric, instructions: 'You answer order questions briefly.' }, { answer: SCORED }],
  [
    'rubric 1..10, dimensions, case reference',
    { ...base, criterion: { kind: 'rubric', criteria: 'Accurate and kind.', caseReference: 'Shipped Monday.', scale: 10, dimensions: ['accuracy', 'tone'] } },
    { answer: '{"score":8,"reason":"ok","evidence":[],"dimensions":{"accuracy":8,"tone":9}}' },
  ],
  [
    'rubric with choices, reported instructions',
    { ...base, criterion: { kind: 'rubric', criteria: 'Tone?', scale: 1, dimensions: [], choices: { polite: 1, rude: 0 } }, reportedInstructions: 'Be <untrusted-target-trace> terse.' },
    { answer: '{"choice":"polite","reason":"ok","evidence":[]}' },
  ],
  [
    'factuality in a conversation',
    {
      ...base,
      criterion: { kind: 'factuality', reference: 'A1 shipped Monday.' },
      transcript: [
        { role: 'user', content: 'Hi' },
        { role: 'assistant', content: 'Hello!' },
        { role: 'user', content: 'Where is order A1?' },
      ],
    },
    { answer: '{"choice":"same","reason":"ok","evidence":[]}' },
  ],
  [
    'pairwise',
    { ...base, criterion: { kind: 'pairwise', criteria: 'Which is clearer?', first: 'Shipped.', second: 'It shipped Monday.', actualPosition: 'A' } },
    { answer: '{"winner":"A","reason":"ok","evidence":[]}' },
  ],
  ['persona and temperature 0 from the request', { ...base, criterion: rubric, temperature: 0 }, { system: 'You are a strict grader.', answer: SCORED }],
];

/** The key each request above had, one for one. */
const GOLDEN_KEYS = [
  'fbaeb09376cffdde66e72caad408a611598cb01111ddf1f458ee3710eadc5ed8',
  '8d23008b2ab26dbcb397e3972a280bc4f864a71682b1d81bde1c5448d78d7975',
  '2018155ffbab56b97e9158b6db2efed37dd04f43f5b0e827b315e94b65d54301',
  '1ec39efa6fdd0dbee2b6d7168fedb241b2ea2d6340a5914ca9ccfd25d9e46acf',
  '5294c205a8982792b849c2499859d3e67f685eeb4665b3d895e1671f3a3da565',
  'd1bd61f64a6e02f75405a15016d8492e315d65016cd29ac5463940d56c1fc91e',
];

function judgeOver(cache: JudgeCache, complete: Provider['complete'], system?: string) {
  const model = { provider: 'openai' as const, model: 'gpt-4.1-mini', baseURL: 'http://127.0.0.1:9/v1' };
  const provider: Provider = { id: 'openai', model: 'gpt-4.1-mini', spec: 'openai:gpt-4.1-mini', complete };
  return inferenceJudge(provider, {
    identity: judgeIdentity(model, {}),
    calledWith: judgeCalledWith(model, 0),
    cache,
    price: () => ({ inputTokens: 0, outputTokens: 0, costUsd: 0, calls: 0 }) as never,
    ...(system !== undefined ? { system } : {}),
  });
}

describe('judge cache keys computed before the judge path was made cheaper', () => {
  it('a disk cache an older run wrote answers every request (twice, the second time through what was remembered), and no call is made', async () => {
    const dir = tempDir();
    mkdirSync(dir, { recursive: true });
    const lines = REQUESTS.map(([, , o], i) => JSON.stringify({ key: GOLDEN_KEYS[i], answer: { text: o.answer, tokens: { inputTokens: 10, outputTokens: 5 }, model: 'gpt-4.1-mini' } }));
    writeFileSync(join(dir, '20261101T000000000Z-1-old.jsonl'), `${lines.join('\n')}\n`);
    const cache = new JudgeCache(dir);
    const refuse: Provider['complete'] = () => Promise.reject(new Error('a call was made: the key moved'));
    for (const [what, req, o] of REQUESTS) {
      const judge = judgeOver(cache, refuse, o.system);
      for (let i = 0; i < 2; i++) {
        const score = await judge.judge({ ...req });
        expect(score.cached, what).toBe(true);
        expect(score.raw, what).toBe(o.answer);
      }
    }
    await cache.close();
  });
});

const WHO: JudgeWho = { provider: 'openai', model: 'gpt-4.1-mini', calledWith: judgeCalledWith('openai:gpt-4.1-mini', 0) };
const AS: JudgedAs = { threshold: 0.7, trace: 'safe' };
const FINGERPRINTED: Array<[JudgeWho, JudgeAssertionSpec, JudgedAs]> = [
  [WHO, { type: 'judge', criteria: 'Answers politely' }, AS],
  [
    { ...WHO, system: 'You are a strict grader.', tools: ['search', 'read'] },
    { type: 'judge', criteria: 'Accurate', scale: 10, min: 7, dimensions: { tone: 6, accuracy: 8 } },
    { threshold: 0.7, trace: 'full' },
  ],
  [WHO, { type: 'judgeAgainst', criteria: 'Matches', reference: 'Paris', choices: { yes: 1, no: 0 }, label: 'capital', severity: 'soft', targetInstructions: false }, AS],
  [{ provider: 'anthropic', model: 'claude-sonnet-5-5' }, { type: 'summarizes', source: 'A long text.' }, AS],
  [WHO, { type: 'factuality', reference: 'Water boils at 100 C.' }, AS],
  [WHO, { type: 'closedQa', question: 'Is it polite?' }, AS],
  [WHO, { type: 'sql', reference: 'SELECT 1' }, AS],
  [WHO, { type: 'pairwise', comparedTo: 'Other answer', prefer: 'reference', positionSwap: false }, { threshold: 1, trace: 'full' }],
];

const GOLDEN_FINGERPRINTS = [
  '{"hash":"ad48b570f8bff2bc","provider":"openai","model":"gpt-4.1-mini","calledWith":{"structuredOutput":"json_schema","thinking":"off","sampling":"any","reasoningEffort":null,"temperature":0,"maxTokens":null},"criterion":{"type":"judge","threshold":0.7,"trace":"safe","targetInstructions":true,"criteria":"dd73e03ce1f4","scale":1},"prompt":"2b34bbc64b1f"}',
  '{"hash":"25f431bd28c6fa10","provider":"openai","model":"gpt-4.1-mini","calledWith":{"structuredOutput":"json_schema","thinking":"off","sampling":"any","reasoningEffort":null,"temperature":0,"maxTokens":null},"persona":"3d8749e83e91","criterion":{"type":"judge","threshold":0.7,"trace":"full","targetInstructions":true,"criteria":"e6f9742f068a","scale":10,"dimensions":{"tone":6,"accuracy":8}},"prompt":"2b34bbc64b1f","tools":["read","search"]}',
  '{"hash":"21baed2f1230a096","provider":"openai","model":"gpt-4.1-mini","calledWith":{"structuredOutput":"json_schema","thinking":"off","sampling":"any","reasoningEffort":null,"temperature":0,"maxTokens":null},"criterion":{"type":"judgeAgainst","threshold":0.7,"trace":"safe","targetInstructions":false,"criteria":"98abff28a940","reference":"5dd272b4f316","choices":{"yes":1,"no":0}},"prompt":"2b34bbc64b1f"}',
  '{"hash":"467055ccc29f0f70","provider":"anthropic","model":"claude-sonnet-5-5","criterion":{"type":"summarizes","threshold":0.7,"trace":"safe","targetInstructions":true,"source":"d2b7a31b629b","scale":1},"prompt":"d8378f428374"}',
  '{"hash":"cd6114a7bb25b3d0","provider":"openai","model":"gpt-4.1-mini","calledWith":{"structuredOutput":"json_schema","thinking":"off","sampling":"any","reasoningEffort":null,"temperature":0,"maxTokens":null},"criterion":{"type":"factuality","threshold":0.7,"trace":"safe","targetInstructions":true,"reference":"cb7ae2e23bdc"},"prompt":"922640cbc641"}',
  '{"hash":"58d5bd57b60052a3","provider":"openai","model":"gpt-4.1-mini","calledWith":{"structuredOutput":"json_schema","thinking":"off","sampling":"any","reasoningEffort":null,"temperature":0,"maxTokens":null},"criterion":{"type":"closedQa","threshold":0.7,"trace":"safe","targetInstructions":true,"question":"6d73a7e4f15c"},"prompt":"4eab888e71c0"}',
  '{"hash":"fd5e223662ed4513","provider":"openai","model":"gpt-4.1-mini","calledWith":{"structuredOutput":"json_schema","thinking":"off","sampling":"any","reasoningEffort":null,"temperature":0,"maxTokens":null},"criterion":{"type":"sql","threshold":0.7,"trace":"safe","targetInstructions":true,"reference":"e004ebd5b553"},"prompt":"73740eec8984"}',
  '{"hash":"3104eb61cbe8bf2c","provider":"openai","model":"gpt-4.1-mini","calledWith":{"structuredOutput":"json_schema","thinking":"off","sampling":"any","reasoningEffort":null,"temperature":0,"maxTokens":null},"criterion":{"type":"pairwise","threshold":1,"trace":"full","targetInstructions":true,"criteria":"2fd2394018f7","comparedTo":"773e7729b237","prefer":"reference","positionSwap":false},"prompt":"8bee37cc94b4"}',
];

describe('judge fingerprints and case fingerprints computed before', () => {
  it('each judged assertion keeps its fingerprint, field for field, also when asked again or for an equal copy', () => {
    FINGERPRINTED.forEach(([who, spec, as], i) => {
      expect(JSON.stringify(judgeFingerprint(who, spec, as)), spec.type).toBe(GOLDEN_FINGERPRINTS[i]);
      expect(JSON.stringify(judgeFingerprint(who, spec, as)), spec.type).toBe(GOLDEN_FINGERPRINTS[i]);
      expect(JSON.stringify(judgeFingerprint(structuredClone(who), structuredClone(spec), { ...as })), spec.type).toBe(GOLDEN_FINGERPRINTS[i]);
    });
  });

  it('a case with judged assertions, turns and a check keeps its case fingerprint, also when asked again', () => {
    const c = makePlannedCase(
      {
        reference: 'Paris',
        assertions: [{ type: 'contains', value: 'Paris' }, { type: 'judge', criteria: 'Names the capital', label: 'cap', weight: 2 } as never],
        turns: [{ input: 'Capital of France?', assert: [{ type: 'judge', criteria: 'x' }] as never }, { input: 'And Spain?' }],
      },
      { suite: 's', file: 'evals/s.eval.yaml', input: 'Capital of France?' },
    );
    const checked = { ...c, check: (t: { judge(s: string): unknown }) => void t.judge('Polite') } as never;
    for (let i = 0; i < 2; i++) {
      expect(caseFingerprint(c)).toBe('9d90f32e82f8197c');
      // A check counts by its source as written, its judge call included (the judge chain is no longer masked out).
      expect(caseFingerprint(checked)).toBe('04a16d5b3e76b410');
    }
  });
});
