/**
 * `agent-evals run --matrix target=a,b` as a user types it: 20 cases × 2 targets = 40 cases, the
 * comparison table on stdout, the same table in the results JSON; a bad matrix is exit 2 before any
 * target runs.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { removeTempDirs } from '../support/cli.js';
import { runCliInProcess } from '../support/cli-in-process.js';
import { expectStoppedBeforeTargets, runMarked, writeProject } from '../support/temp-project.js';
import { ResultsSchema } from '../../src/core/results-schema.js';
import { matrixTableLines } from '../../src/report/matrix-lines.js';

afterAll(removeTempDirs);

// `worse` forgets the order number on every fourth question; both mark that a target ran.
const CONFIG = `import { writeFileSync } from 'node:fs';
const mark = () => process.env.MARKER && writeFileSync(process.env.MARKER, 'called');
const agent = (worse) => (input) => {
  mark();
  const order = /A\\d{4}/.exec(input)[0];
  return worse && Number(order.slice(1)) % 4 === 0 ? 'On its way.' : 'The refund for ' + order + ' is on its way.';
};
export default { evals: ['evals/**/*.eval.yaml'], targets: { good: agent(false), worse: agent(true) } };
`;

const suite = (head: string) =>
  [
    head,
    'cases:',
    ...Array.from({ length: 20 }, (_, i) => `  - id: q${i + 1}\n    input: Where is the refund for order A${1000 + i}?\n    assert: [{ type: contains, value: A${1000 + i} }]`),
    '',
  ].join('\n');

describe('agent-evals run --matrix', () => {
  it('runs 40 cases, prints the comparison table and writes the same table to the JSON', async () => {
    const dir = writeProject({ 'evals.config.mjs': CONFIG, 'evals/support.eval.yaml': suite('suite: support\ntarget: good') });
    const r = await runCliInProcess(['run', '--matrix', 'target=good,worse', '--json', 'results.json'], { cwd: dir });
    expect(r.code, r.stderr).toBe(1); // `worse` failed 5 cases
    const results = ResultsSchema.parse(JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')));
    expect(results.summary.cases.total).toBe(40);
    const table = results.summary.matrix![0]!;
    expect(table.rows.map((row) => [row.value, row.casesPassed, row.cases])).toEqual([
      ['good', 20, 20],
      ['worse', 15, 20],
    ]);
    expect(table.rows[0]!.best).toEqual(expect.arrayContaining(['casesPassed', 'score']));
    // 20/20 against 15/20 over 20 trials each: the pass-rate intervals overlap, so no mark on that column.
    expect(table.rows[0]!.best).not.toContain('passRate');
    for (const line of matrixTableLines(table)) expect(r.stdout).toContain(line);
    expect(r.stdout).toContain('support/q4 [target=worse]');
  });

  it('an unknown matrix dimension in a file is exit 2 naming file, line and field, before any target runs', async () => {
    const dir = writeProject({ 'evals.config.mjs': CONFIG, 'evals/support.eval.yaml': suite('suite: support\nmatrix:\n  target: [good]\n  temperature: [x]') });
    const stderr = expectStoppedBeforeTargets(await runMarked(dir, [], {}, runCliInProcess));
    expect(stderr).toMatch(/evals\/support\.eval\.yaml:4.*matrix\.temperature.*unknown matrix dimension "temperature"/);
  });
});
