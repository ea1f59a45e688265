/**
 * Scoring files and the plan of `agent-evals score` (suite/): loading a `*.score.yaml` with located
 * errors, `where:` against a trace's metadata, one case per (scoring, trace), and failed traces written
 * back as eval cases (`--save-failures`) that the eval-file schema accepts.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { load } from 'js-yaml';
import { afterAll, describe, expect, it } from 'vitest';
import { UserError, UserErrors } from '../../src/core/errors.js';
import type { RecordedTrace } from '../../src/core/recorded-trace.js';
import { loadScoreFile, type Scoring } from '../../src/suite/load-score-file.js';
import { planScored, whereMatches } from '../../src/suite/score-plan.js';
import { savedFailureCases, savedFailuresText } from '../../src/suite/saved-failures.js';
import { EvalFileSchema } from '../../src/suite/schema.js';
import { removeTempDirs, tempDir } from '../support/cli.js';

afterAll(removeTempDirs);

const trace = (id: string, metadata: Record<string, unknown> = {}, extra: Partial<RecordedTrace> = {}): RecordedTrace => ({
  id,
  input: `question ${id}`,
  run: { reply: `answer ${id}` },
  metadata,
  source: `t.jsonl:${id}`,
  ...extra,
});
const scoring = (name: string, where?: Scoring['where']): Scoring => ({ name, file: `${name}.score.yaml`, line: 3, ...(where ? { where } : {}), assertions: [{ type: 'contains', value: 'answer' }] });
const defaults = { timeoutMs: 1000, judgeDefaults: { severity: 'soft', threshold: 0.5 } } as const;

async function errorsOf(text: string): Promise<UserError[]> {
  const file = join(tempDir(), 'x.score.yaml');
  writeFileSync(file, text);
  try {
    await loadScoreFile(file, 'x.score.yaml');
  } catch (err) {
    if (err instanceof UserErrors) return err.errors;
    if (err instanceof UserError) return [err];
    throw err;
  }
  throw new Error('loaded');
}

describe('scoring files', () => {
  it('loads name, where, judge, onlyTools and assertions, with the line of `assert:`', async () => {
    const file = join(tempDir(), 'ok.score.yaml');
    writeFileSync(file, 'name: support\nwhere: { agent: support, tier: [1, gold] }\nonlyTools: [lookup]\nassert:\n  - { type: contains, value: ok }\n');
    expect(await loadScoreFile(file, 'ok.score.yaml')).toEqual({
      name: 'support',
      file: 'ok.score.yaml',
      line: 4,
      where: { agent: 'support', tier: [1, 'gold'] },
      onlyTools: ['lookup'],
      assertions: [{ type: 'contains', value: 'ok' }],
    });
  });

  it('names the file, line and field of each problem: an unknown field, no assertion, a judge that needs a reference a trace has not', async () => {
    const [unknown] = await errorsOf('name: s\nfilter: { a: b }\nassert: [{ type: contains, value: x }]\n');
    expect(unknown).toMatchObject({ file: 'x.score.yaml', line: 2, field: 'filter' });
    expect(unknown!.message).toContain('unknown field "filter"');
    const [none] = await errorsOf('name: s\nassert: []\n');
    expect(none!.message).toContain('a scoring file needs at least one assertion');
    const [absent] = await errorsOf('name: s\ndescription: no assert yet\n');
    expect(absent).toMatchObject({ file: 'x.score.yaml', field: 'assert' });
    expect(absent!.message).toContain('a scoring file needs "assert", the assertions each trace is graded with');
    const [notList] = await errorsOf('name: s\nassert: { type: contains, value: x }\n');
    expect(notList).toMatchObject({ field: 'assert' });
    expect(notList!.message).not.toContain('needs "assert"');
    const [reference] = await errorsOf('name: s\nassert:\n  - { type: factuality }\n');
    expect(reference).toMatchObject({ line: 3, field: 'assert[0]' });
    expect(reference!.message).toContain('a scored trace has none');
    const [slash] = await errorsOf('name: a/b\nassert: [{ type: contains, value: x }]\n');
    expect(slash).toMatchObject({ field: 'name' });
  });
});

describe('planScored', () => {
  it('matches `where` key by key: a value, one of a list, numbers by their text; a missing key never', () => {
    expect(whereMatches(undefined, {})).toBe(true);
    expect(whereMatches({ agent: 'a' }, { agent: 'a', x: 1 })).toBe(true);
    expect(whereMatches({ agent: 'a' }, { agent: 'b' })).toBe(false);
    expect(whereMatches({ route: ['r1', 'r2'] }, { route: 'r2' })).toBe(true);
    expect(whereMatches({ tier: 2 }, { tier: '2' })).toBe(true);
    expect(whereMatches({ agent: 'a', tier: 2 }, { agent: 'a' })).toBe(false);
    expect(whereMatches({ obj: '[object Object]' }, { obj: {} })).toBe(false);
  });

  it('plans one case per (scoring, matching trace), keeps the unmatched apart, and gives a trace read twice its own id', () => {
    const traces = [trace('t1', { agent: 'a' }), trace('t2', { agent: 'b' }), trace('t1', { agent: 'a' }, { source: 'u.jsonl:1' }), trace('t3')];
    const plan = planScored([scoring('only-a', { agent: 'a' }), scoring('all')], traces, defaults);
    expect(plan.cases.map((c) => c.key)).toEqual(['only-a/t1', 'only-a/t1~2', 'all/t1', 'all/t2', 'all/t1~2', 'all/t3']);
    expect(plan.cases.map((c) => c.index)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(plan.unmatched).toEqual([]);
    const c = plan.cases[1]!;
    expect(c).toMatchObject({
      suite: 'only-a',
      target: 'recorded',
      repeat: 1,
      input: 'question t1',
      messages: [{ role: 'user', content: 'question t1' }],
      scoredTrace: { id: 't1', source: 'u.jsonl:1' },
    });
    expect(plan.scored.get('only-a/t1~2')!.trace.source).toBe('u.jsonl:1');

    const narrow = planScored([scoring('only-a', { agent: 'a' })], traces, defaults);
    expect(narrow.unmatched.map((t) => t.id)).toEqual(['t2', 't3']);
  });

  it("a conversation's case answers its last user message; onlyTools plans its allowlist gate first", () => {
    const messages = [
      { role: 'user' as const, content: 'hi' },
      { role: 'assistant' as const, content: 'hello' },
      { role: 'user' as const, content: 'where is A-1?' },
    ];
    const [c] = planScored([{ ...scoring('s'), onlyTools: ['lookup'] }], [trace('t', {}, { input: undefined, messages })], defaults).cases;
    expect(c!.input).toBe('where is A-1?');
    expect(c!.messages).toEqual(messages);
    expect(c!.assertions.map((a) => a.type)).toEqual(['onlyTools', 'contains']);
  });

  it('refuses two scoring files of one name, naming both', () => {
    expect(() => planScored([scoring('s'), { ...scoring('s'), file: 'other.score.yaml' }], [trace('t')], defaults)).toThrow(/two scoring files are named "s" \(the other is s\.score\.yaml\)/);
  });
});

describe('saved failures', () => {
  it('writes each failed trace as a case the eval-file schema accepts: input, the failed scorings’ assertions once each, no reference, the trace in metadata', async () => {
    const judged: Scoring = { ...scoring('judged'), judge: 'openai:gpt-4.1-mini', assertions: [{ type: 'contains', value: 'answer' }, { type: 'judge', criteria: 'is polite' } as never] };
    const custom: Scoring = { ...scoring('ts'), assertions: [{ type: 'custom', name: 'x', fn: () => true } as never, { type: 'userAssertion', name: 'tone', options: { strict: true } } as never] };
    const { cases, leftOut } = savedFailureCases([
      { trace: trace('evals/a b.jsonl:3', {}, { startedAt: '2026-12-01T00:00:00Z' }), scorings: [scoring('plain'), judged] },
      { trace: trace('evals/a b.jsonl:3', {}, { source: 'other' }), scorings: [custom] },
    ]);
    expect(leftOut).toBe(1);
    expect(cases[0]).toEqual({
      id: 'evals-a-b.jsonl-3',
      input: 'question evals/a b.jsonl:3',
      judge: 'openai:gpt-4.1-mini',
      metadata: { trace: { id: 'evals/a b.jsonl:3', startedAt: '2026-12-01T00:00:00Z', source: 't.jsonl:evals/a b.jsonl:3' }, failed: ['plain', 'judged'], recordedReply: 'answer evals/a b.jsonl:3' },
      assert: [
        { type: 'contains', value: 'answer' },
        { type: 'judge', criteria: 'is polite' },
      ],
    });
    // The same id twice: the second gets a hash. A user assertion is written by its own name again.
    expect(cases[1]!.id).toMatch(/^evals-a-b\.jsonl-3-[0-9a-f]{8}$/);
    expect(cases[1]!.assert).toEqual([{ type: 'tone', strict: true }]);

    // A recorded conversation is saved as its messages, ending with the one the agent failed on.
    const messages = [
      { role: 'system' as const, content: 'be brief' },
      { role: 'user' as const, content: 'where is A-1?' },
    ];
    const [conversation] = savedFailureCases([{ trace: trace('c', {}, { input: undefined, messages }), scorings: [scoring('plain')] }]).cases;
    expect(conversation).toMatchObject({ messages });
    expect(conversation).not.toHaveProperty('input');

    const text = await savedFailuresText([cases[0]!, conversation!], { suite: 'misses', target: 'agent', traces: ['t.jsonl'], scoring: ['plain.score.yaml'] });
    expect(text).toMatch(/^# Saved by `agent-evals score --save-failures`/);
    const parsed = EvalFileSchema.safeParse(load(text));
    expect(parsed.success ? [] : parsed.error.issues).toEqual([]);
  });

  it('a trace whose failed scorings assert only in TS code (custom predicates, a suite check) is not saved: a case without assertions would not load', () => {
    const check = () => {};
    const code: Scoring = { ...scoring('ts'), assertions: [{ type: 'custom', name: 'x', fn: () => true } as never], check };
    const checkOnly: Scoring = { ...scoring('checked'), assertions: [], check };
    const { cases, leftOut, unsaved } = savedFailureCases([
      { trace: trace('a'), scorings: [code] },
      { trace: trace('b'), scorings: [checkOnly] },
      { trace: trace('c'), scorings: [code, scoring('plain')] },
    ]);
    expect(unsaved).toEqual(['a', 'b']);
    // Each predicate and each check is counted: a's two, b's check, c's two.
    expect(leftOut).toBe(5);
    expect(cases.map((c) => [c.id, c.assert])).toEqual([['c', [{ type: 'contains', value: 'answer' }]]]);
  });
});
