/**
 * The pure steps of `agent-evals generate`: near-duplicates by cosine similarity (the first written of
 * a pair stays; an existing case's input counts too), each intent kept to its share of the count, and
 * draft cases whose assertions name only the target's tools.
 */
import { describe, expect, it } from 'vitest';
import { fakeEmbedding } from '../../src/providers/fake-embedder.js';
import { dropNearDuplicates } from '../../src/generate/near-duplicates.js';
import { balanceIntents } from '../../src/generate/intent-balance.js';
import { draftCases } from '../../src/generate/draft-cases.js';
import type { GeneratedItem } from '../../src/generate/generated-item.js';

describe('dropNearDuplicates', () => {
  const v = (t: string) => fakeEmbedding(t);
  it('keeps the first of a paraphrase pair and drops an input repeating an existing case, at the threshold too', () => {
    const fresh = ['Where is my order A1001?', 'Cancel order B2002 please.', 'My order A1001: where is it?', 'Cancel orders B2002, please!'].map(v);
    const existing = [v('Please cancel orders B2002')];
    const { kept, dropped } = dropNearDuplicates(existing, fresh, 0.9);
    expect(kept).toEqual([0]);
    expect(dropped.map((d) => [d.index, d.of])).toEqual([
      [1, { existing: 0 }],
      [2, { kept: 0 }],
      [3, { existing: 0 }],
    ]);
    // Exactly at the threshold counts as a repeat: the same words give similarity 1.
    expect(dropNearDuplicates([], [v('a b c'), v('c b a')], 1).kept).toEqual([0]);
  });

  it('keeps inputs that share only some words', () => {
    const fresh = ['Where is my order A1001?', 'Cancel my order A1001.'].map(v);
    expect(dropNearDuplicates([], fresh, 0.9).kept).toEqual([0, 1]);
    // A lower threshold makes them one.
    expect(dropNearDuplicates([], fresh, 0.6).kept).toEqual([0]);
  });
});

describe('balanceIntents', () => {
  const items = (intents: string) => intents.split('').map((intent) => ({ intent }));
  it('keeps at most ceil(count / intents) of each, the first written, in order', () => {
    // 3 intents, count 6: a share of 2 each.
    expect(balanceIntents(items('aaaabbc'), 6)).toEqual({ kept: [0, 1, 4, 5, 6], overShare: 2 });
  });

  it('when the shares exceed the count, the largest intent gives up its last item first', () => {
    // count 5, 2 intents: share 3 each would be 6; a gives one back... both have 3: the later intent (b) gives.
    expect(balanceIntents(items('aaabbb'), 5)).toEqual({ kept: [0, 1, 2, 3, 4], overShare: 1 });
    expect(balanceIntents(items('aaaabb'), 5)).toEqual({ kept: [0, 1, 2, 4, 5], overShare: 1 });
  });

  it('counts the given intents even when the generator left one out', () => {
    // Intents a, b, c given (share 1 of 3): c has none, a and b one each.
    expect(balanceIntents(items('aabb'), 3, ['a', 'b', 'c'])).toEqual({ kept: [0, 2], overShare: 2 });
  });
});

describe('draftCases', () => {
  const item = (over: Partial<GeneratedItem>): GeneratedItem => ({ intent: 'orders', kind: 'typical', input: 'Where is A1001?', expectedTools: [], ...over });
  it('names only tools the target has, counting each unknown name once per case; a tool both expected and avoided is only expected', () => {
    const { cases, unknownTools } = draftCases(
      [
        item({ expectedTools: ['lookup', 'teleport', 'teleport'], avoidTools: ['refund', 'lookup', 'launch'] }),
        item({ input: 'Hello?', expectedTools: [] }),
        item({ input: 'Beam me up.', expectedTools: ['teleport'] }),
      ],
      ['lookup', 'refund'],
      'openai:gen',
    );
    expect(unknownTools).toBe(3);
    expect(cases[0]!.assert).toEqual([
      { type: 'calledTool', tool: 'lookup' },
      { type: 'notCalledTool', tool: 'refund' },
    ]);
    // No tool expected of a target with tools: a correct agent uses none.
    expect(cases[1]!.assert).toEqual([{ type: 'usedNoTools' }]);
    // Its one tool unknown: the weakest gate, for the reviewer to replace (a case loads only with an assertion).
    expect(cases[2]!.assert).toEqual([{ type: 'lengthBetween', min: 1 }]);
    for (const c of cases) expect(c).toMatchObject({ draft: true, metadata: { intent: 'orders', kind: 'typical', generatedBy: 'openai:gen' } });
  });

  it('gives the same id to the same input, and another to another', () => {
    const a = draftCases([item({}), item({ input: 'Where is A1002?' })], [], 'g').cases;
    const b = draftCases([item({ intent: 'other', kind: 'edge' })], [], 'h').cases;
    expect(a[0]!.id).toBe(b[0]!.id);
    expect(a[0]!.id).toMatch(/^where-is-a1001-[0-9a-f]{8}$/);
    expect(a[1]!.id).not.toBe(a[0]!.id);
  });
});
