import { describe, expect, it } from 'vitest';
import { judgeCalledWith, judgeFingerprint, type JudgedAs, type JudgeWho } from '../../src/judges/judge-fingerprint.js';
import { judgePromptVersion } from '../../src/judges/judge-prompt-version.js';
import type { JudgeAssertionSpec } from '../../src/judges/spec.js';

const WHO: JudgeWho = { provider: 'openai', model: 'gpt-4.1-mini', calledWith: judgeCalledWith('openai:gpt-4.1-mini', 0) };
const RUBRIC: JudgeAssertionSpec = { type: 'judge', criteria: 'Answers politely' };
const AS: JudgedAs = { threshold: 0.7, trace: 'safe' };
const hashOf = (who: Partial<JudgeWho> = {}, spec: Partial<JudgeAssertionSpec> = {}, as: Partial<JudgedAs> = {}) =>
  judgeFingerprint({ ...WHO, ...who }, { ...RUBRIC, ...spec } as JudgeAssertionSpec, { ...AS, ...as }).hash;

describe('judgeFingerprint', () => {
  it('is the same for the same judge and criterion, and holds no criterion text in clear', () => {
    const fp = judgeFingerprint(WHO, RUBRIC, AS);
    expect(judgeFingerprint({ ...WHO }, { ...RUBRIC }, { ...AS })).toEqual(fp);
    expect(fp.hash).toMatch(/^[0-9a-f]{16}$/);
    expect(JSON.stringify(fp)).not.toContain('politely');
    expect(fp).toMatchObject({ provider: 'openai', model: 'gpt-4.1-mini', criterion: { type: 'judge', scale: 1, threshold: 0.7, trace: 'safe', targetInstructions: true } });
  });

  it('changes with each thing about the judge', () => {
    const fp = hashOf();
    const variants: Array<[string, Partial<JudgeWho>]> = [
      ['provider', { provider: 'azure' }],
      ['model', { model: 'gpt-4.1-nano' }],
      ['persona', { system: 'You are a strict grader.' }],
      ['reasoning effort', { calledWith: judgeCalledWith({ provider: 'openai', model: 'gpt-5.5', reasoningEffort: 'high' }, 0) }],
      ['temperature', { calledWith: judgeCalledWith('openai:gpt-4.1-mini', 0.5) }],
      ['token limit', { calledWith: judgeCalledWith({ provider: 'openai', model: 'gpt-4.1-mini', maxTokens: 300 }, 0) }],
      ['structured-output mode', { calledWith: judgeCalledWith({ provider: 'openai', model: 'gpt-4.1-mini', capabilities: { structuredOutput: 'text' } }, 0) }],
      ['tools', { tools: ['search_orders'] }],
    ];
    for (const [what, who] of variants) expect(hashOf(who), what).not.toBe(fp);
    expect(hashOf({ tools: ['search_orders'] })).not.toBe(hashOf({ tools: ['search_refunds'] }));
  });

  it('changes with each thing about the criterion', () => {
    const fp = hashOf();
    const variants: Array<[string, Partial<JudgeAssertionSpec>, Partial<JudgedAs>?]> = [
      ['criteria', { criteria: 'Answers politely and briefly' }],
      ['type', { type: 'judgeAgainst', reference: 'Paris' } as never],
      ['scale', { scale: 10 } as never],
      ['choices', { choices: { good: 1, bad: 0 } }],
      ['dimensions', { dimensions: { tone: 0.5 } }],
      ['threshold', {}, { threshold: 0.8 }],
      ['trace policy', {}, { trace: 'full' }],
      ['target instructions', { targetInstructions: false }],
    ];
    for (const [what, spec, as] of variants) expect(hashOf({}, spec, as), what).not.toBe(fp);
    // The assertion's own texts: reference, question, source, the other answer.
    const own = (spec: JudgeAssertionSpec) => judgeFingerprint(WHO, spec, AS).hash;
    expect(own({ type: 'judgeAgainst', criteria: 'Same city', reference: 'Paris' })).not.toBe(own({ type: 'judgeAgainst', criteria: 'Same city', reference: 'Lyon' }));
    expect(own({ type: 'closedQa', question: 'Is it polite?' })).not.toBe(own({ type: 'closedQa', question: 'Is it brief?' }));
    expect(own({ type: 'summarizes', source: 'a' })).not.toBe(own({ type: 'summarizes', source: 'b' }));
    expect(own({ type: 'pairwise', comparedTo: 'a' })).not.toBe(own({ type: 'pairwise', comparedTo: 'b' }));
    expect(own({ type: 'pairwise', comparedTo: 'a' })).not.toBe(own({ type: 'pairwise', comparedTo: 'a', prefer: 'reference' }));
    // A pairwise without criteria asks ours: the same as writing it out.
    expect(own({ type: 'pairwise', comparedTo: 'a' })).not.toBe(own({ type: 'pairwise', comparedTo: 'a', criteria: 'Which is shorter?' }));
  });

  it('leaves out what says nothing about the answer: the label, severity and weight of the assertion', () => {
    expect(hashOf({}, { label: 'tone', severity: 'gate', weight: 3 })).toBe(hashOf());
  });

  it('carries our judge prompt version for the criterion kind: a hash of our wording, computed once and stable', () => {
    const fp = judgeFingerprint(WHO, RUBRIC, AS);
    expect(fp.prompt).toBe(judgePromptVersion('rubric'));
    expect(fp.prompt).toMatch(/^[0-9a-f]{12}$/);
    expect(judgeFingerprint(WHO, { type: 'closedQa', question: 'q' }, AS).prompt).toBe(judgePromptVersion('closedQa'));
    expect(new Set(['rubric', 'summarizes', 'factuality', 'closedQa', 'sql', 'pairwise'].map((k) => judgePromptVersion(k as never))).size).toBe(6);
  });
});
