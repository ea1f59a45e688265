/**
 * What `agent-evals review` shows of each trial and writes as its labels row: the id a fake judge's
 * fixture matches (`<case key>#<trial>`), the case's question as one text whatever form it took, and
 * the row's fields in calibrate's format; plus the page's key table (the page imports it as is).
 */
import { describe, expect, it } from 'vitest';
import { labelRow, reviewItems } from '../../src/report/review-items.js';
import { keyAction } from '../../page/review-keys.js';
import { LabelRowSchema } from '../../src/suite/labels.js';
import type { TrialResult } from '../../src/core/results-schema.js';
import { emptyUsage } from '../../src/core/usage.js';
import { caseResult } from '../support/case-result.js';

const trial = (index: number, reply: string, extra: Partial<TrialResult> = {}): TrialResult => ({
  index,
  verdict: 'passed',
  score: 1,
  durationMs: 1,
  reply,
  usage: { target: emptyUsage(), judge: emptyUsage() },
  assertions: [],
  trace: { steps: [] },
  ...extra,
});

describe('review items', () => {
  it('one item per trial, named <case key>#<trial>, with the matrix in the key', () => {
    const items = reviewItems({
      cases: [
        caseResult({ suite: 's', id: 'a', input: 'q', reference: 'r', trials: [trial(0, 'one', { trace: { steps: [], instructions: 'be brief' } }), trial(1, 'two')] }),
        caseResult({ suite: 's', id: 'b', matrix: { target: 'x' }, input: 'q2', trials: [trial(0, 'three')] }),
      ],
    });
    expect(items.map((i) => [i.id, i.trial, i.output])).toEqual([
      ['s/a#1', 1, 'one'],
      ['s/a#2', 2, 'two'],
      ['s/b [target=x]#1', 1, 'three'],
    ]);
    expect(items[0]).toMatchObject({ input: 'q', reference: 'r', instructions: 'be brief' });
    expect(items[1]?.instructions).toBeUndefined();
  });

  it("a history or a multi-turn case's question becomes one text", () => {
    const [history, turns] = reviewItems({
      cases: [
        caseResult({
          id: 'h',
          messages: [
            { role: 'user', content: 'hi' },
            { role: 'assistant', content: 'hello' },
            { role: 'user', content: 'why?' },
          ],
          trials: [trial(0, 'because')],
        }),
        caseResult({ id: 't', turns: [{ input: 'one' }, { input: 'two' }], trials: [trial(0, 'done')] }),
      ],
    });
    expect(history?.input).toBe('user: hi\n\nassistant: hello\n\nuser: why?');
    expect(turns?.input).toBe('turn 1: one\n\nturn 2: two');
  });

  it('a label becomes a row calibrate accepts; an empty label, none', () => {
    const [item] = reviewItems({ cases: [caseResult({ input: 'q', trials: [trial(0, 'r')] })] });
    const row = labelRow(item!, { humanVerdict: 'fail', humanScore: 3 });
    expect(row).toEqual({ id: 's/c#1', input: 'q', output: 'r', humanVerdict: 'fail', humanScore: 3 });
    expect(LabelRowSchema.safeParse(row).success).toBe(true);
    expect(labelRow(item!, {})).toBeUndefined();
  });

  it('keys: j/k and arrows move, p/f set the verdict, 1-9 score 1-9 and 0 scores 10, other keys do nothing', () => {
    expect(['j', 'ArrowRight', 'ArrowDown'].map((k) => keyAction(k, 10))).toEqual(Array(3).fill({ kind: 'next' }));
    expect(['k', 'ArrowLeft', 'ArrowUp'].map((k) => keyAction(k, 10))).toEqual(Array(3).fill({ kind: 'previous' }));
    expect(keyAction('p', 10)).toEqual({ kind: 'verdict', verdict: 'pass' });
    expect(keyAction('f', 10)).toEqual({ kind: 'verdict', verdict: 'fail' });
    expect(keyAction('7', 10)).toEqual({ kind: 'score', score: 7 });
    expect(keyAction('0', 10)).toEqual({ kind: 'score', score: 10 });
    expect(keyAction('q', 10)).toBeUndefined();
    expect(keyAction('Enter', 10)).toBeUndefined();
  });
});
