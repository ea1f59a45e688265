/**
 * The matrix over a dataset: a 20-row JSONL file run with `--matrix target=a,b` is 40 cases, each row
 * once per target, with the comparison table in the terminal and the JSON.
 */
import { describe, expect, it } from 'vitest';
import { runInProcess } from '../support/run-in-process.js';
import { terminalReporter } from '../../src/report/terminal.js';
import { matrixTableLines } from '../../src/report/matrix-lines.js';

const ROWS = Array.from({ length: 20 }, (_, i) => JSON.stringify({ input: `Where is the refund for order A${1000 + i}?`, order: `A${1000 + i}` })).join('\n') + '\n';
const SUITE = ['suite: refunds', 'target: good', 'dataset: refunds.jsonl', 'assert:', '  - { type: contains, value: "{{order}}" }', ''].join('\n');

/** Echoes the order number; the worse agent forgets it on every fourth question (15 of 20 pass). */
const agent =
  (worse: boolean) =>
  (input: string): string => {
    const order = /A\d{4}/.exec(input)![0];
    return worse && Number(order.slice(1)) % 4 === 0 ? 'Your refund is on its way.' : `The refund for ${order} is on its way.`;
  };

async function run(targets: { a: boolean; b: boolean }) {
  let out = '';
  const { results } = await runInProcess({
    files: { 'evals/refunds.eval.yaml': SUITE, 'evals/refunds.jsonl': ROWS },
    config: { targets: { good: agent(false), a: agent(targets.a), b: agent(targets.b) } },
    selection: { matrix: ['target=a,b'] },
    reporters: () => [{ name: 'terminal', ...terminalReporter({ out: { write: (t: string) => (out += t) }, live: false, verbose: false }) }],
  });
  return { results, printed: out.replace(/\x1b\[[0-9;]*m/g, '') };
}

describe('--matrix over a 20-row dataset', () => {
  it('runs 40 cases, prints the table the JSON holds, and marks the better variant', async () => {
    const { results, printed } = await run({ a: false, b: true });
    expect(results.cases).toHaveLength(40);
    // Each row id appears once per target, the key carrying the value.
    const ids = new Set(results.cases.map((c) => c.id));
    expect(ids.size).toBe(20);
    for (const id of ids) expect(results.cases.filter((c) => c.id === id).map((c) => c.matrix?.target)).toEqual(['a', 'b']);

    const [table] = results.summary.matrix!;
    const [a, b] = table!.rows;
    expect(a).toMatchObject({ value: 'a', casesPassed: 20 });
    expect(b).toMatchObject({ value: 'b', casesPassed: 15 });
    expect(a!.best).toEqual(expect.arrayContaining(['casesPassed', 'score']));
    // 20/20 against 15/20: the pass-rate intervals overlap, so that column names no winner.
    expect(a!.best).not.toContain('passRate');
    for (const line of matrixTableLines(table!)) expect(printed).toContain(line);
  });

  it('identical variants are no clear winner', async () => {
    const { results, printed } = await run({ a: true, b: true });
    const [table] = results.summary.matrix!;
    expect(table!.rows.map((r) => r.casesPassed)).toEqual([15, 15]);
    expect(table!.notes).toEqual(['no clear winner on pass rate: the 95% intervals of a and b overlap']);
    expect(printed).toContain('no clear winner on pass rate');
  });
});
