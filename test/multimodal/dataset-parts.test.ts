/**
 * Content parts in a JSONL dataset column: an image path relative to the dataset file, read and
 * handed to the target as a part; a row whose part is malformed is a user error naming the row.
 */
import { describe, expect, it } from 'vitest';
import { runInProcess } from '../support/run-in-process.js';
import type { TargetContext } from '../../src/targets/function-target.js';
import { IMAGE_PNG } from './image-fixtures.js';

const EVALS = 'suite: rows\ntarget: fn\ndataset: data/rows.jsonl\nassert:\n  - { type: contains, value: seen }\n';
const row = (input: unknown) => `${JSON.stringify({ id: 'r1', input })}\n`;

describe('content parts in a dataset column', () => {
  it("reads a row's image relative to the dataset file and hands it to the target", async () => {
    const seen: string[] = [];
    const { results } = await runInProcess({
      files: {
        'evals/rows.eval.yaml': EVALS,
        'evals/data/rows.jsonl': row([
          { type: 'text', text: 'Describe it.' },
          { type: 'image', path: 'img/one.png' },
        ]),
        'evals/data/img/one.png': IMAGE_PNG,
      },
      config: {
        targets: {
          fn: (input: string, ctx: TargetContext) => {
            for (const p of ctx.trial.parts ?? []) seen.push(p.type === 'text' ? p.text : 'url' in p ? p.url : `${p.mediaType} ${p.name} ${p.bytes}`);
            return `seen: ${input}`;
          },
        },
      },
    });
    expect(results.cases[0]!.verdict).toBe('passed');
    expect(seen).toEqual(['Describe it.', `image/png one.png ${IMAGE_PNG.length}`]);
    expect(results.cases[0]!.inputParts?.[1]).toMatchObject({ type: 'image', name: 'one.png' });
  });

  it('a row whose part is not one the schema knows is a user error naming the row', async () => {
    const message = await runInProcess({
      files: { 'evals/rows.eval.yaml': EVALS, 'evals/data/rows.jsonl': row([{ type: 'audio', path: 'a.wav' }]) },
      config: { targets: { fn: () => 'seen' } },
    }).then(
      () => 'ran',
      (e: Error) => e.message,
    );
    expect(message).toMatch(/^evals\/data\/rows\.jsonl:1: input: row 1: /);
  });

  it("a row's turns and messages may carry parts too, read relative to the dataset file", async () => {
    const seen: Record<string, string[]> = {};
    const rows = [
      {
        id: 'turns',
        turns: [
          { input: 'Hi.' },
          {
            input: [
              { type: 'text', text: 'This.' },
              { type: 'image', path: 'img/one.png' },
            ],
          },
        ],
      },
      {
        id: 'history',
        messages: [
          { role: 'user', content: [{ type: 'image', path: 'img/one.png' }] },
          { role: 'assistant', content: 'Got it.' },
          { role: 'user', content: 'What is it?' },
        ],
      },
    ];
    const { results } = await runInProcess({
      files: { 'evals/rows.eval.yaml': EVALS, 'evals/data/rows.jsonl': rows.map((r) => JSON.stringify(r)).join('\n') + '\n', 'evals/data/img/one.png': IMAGE_PNG },
      config: {
        targets: {
          fn: (_input: string, ctx: TargetContext) => {
            seen[`${ctx.trial.id} turn ${ctx.turn}`] = ctx.messages.flatMap((m) => (m.parts ?? []).map((p) => (p.type === 'text' ? p.text : 'url' in p ? p.url : `${p.mediaType} ${p.name}`)));
            return 'seen';
          },
        },
      },
    });
    expect(results.cases.map((c) => c.verdict)).toEqual(['passed', 'passed']);
    expect(seen).toEqual({ 'turns turn 1': [], 'turns turn 2': ['This.', 'image/png one.png'], 'history turn 1': ['image/png one.png'] });
  });

  it('a CSV cell stays text: a path in it is the question, not an image (JSONL or YAML carry parts)', async () => {
    const inputs: string[] = [];
    const parts: unknown[] = [];
    await runInProcess({
      files: { 'evals/rows.eval.yaml': EVALS.replace('rows.jsonl', 'rows.csv'), 'evals/data/rows.csv': 'id,input\nr1,img/one.png\n', 'evals/data/img/one.png': IMAGE_PNG },
      config: {
        targets: {
          fn: (input: string, ctx: TargetContext) => {
            inputs.push(input);
            parts.push(ctx.trial.parts);
            return 'seen';
          },
        },
      },
    });
    expect(inputs).toEqual(['img/one.png']);
    expect(parts).toEqual([undefined]);
  });
});
