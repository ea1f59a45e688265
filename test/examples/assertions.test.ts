/**
 * examples/assertions: the user assertion example, run as its comment says (`npx agent-evals run` in
 * its folder; here a copy of it, so the run's output folder stays out of the repository): the
 * `wordCount` assertion loads from the config's `assertions` and decides the case.
 */
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ResultsSchema } from '../../src/core/results-schema.js';
import { REPO_ROOT, tempDir } from '../support/cli.js';
import { runCliInProcess } from '../support/cli-in-process.js';

function exampleCopy(): string {
  const dir = tempDir();
  cpSync(join(REPO_ROOT, 'examples/assertions'), dir, { recursive: true });
  return dir;
}

describe('examples/assertions', () => {
  it('runs green: the wordCount assertion passes a three-word reply against max 5 and min 2', async () => {
    const dir = exampleCopy();
    const { code, stdout, stderr } = await runCliInProcess(['run', '--json', 'results.json'], { cwd: dir });
    expect(code, stdout + stderr).toBe(0);
    const results = ResultsSchema.parse(JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')));
    const trial = results.cases[0]!.trials[0]!;
    expect(results.cases.map((c) => `${c.suite}/${c.id}:${c.verdict}`)).toEqual(['brief-replies/short:passed']);
    expect(trial.assertions.map((a) => [a.kind, a.status, a.message])).toEqual([
      ['userAssertion', 'passed', 'wordCount: returned pass true, score 1 (3 words (expected 0 to 5))'],
      ['userAssertion', 'passed', 'wordCount: returned pass true, score 1 (3 words (expected 2 to Infinity))'],
    ]);
  });

  it('fails, exit 1, when the reply is longer than the case allows', async () => {
    const dir = exampleCopy();
    const file = join(dir, 'brief.eval.yaml');
    writeFileSync(file, readFileSync(file, 'utf8').replace('input: Three words here', 'input: Now there are seven words in it'));
    const { code, stdout, stderr } = await runCliInProcess(['run', '--json', 'results.json'], { cwd: dir });
    expect(code, stdout + stderr).toBe(1);
    const results = ResultsSchema.parse(JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')));
    expect(results.cases[0]!.trials[0]!.assertions[0]).toMatchObject({ kind: 'userAssertion', status: 'failed', message: 'wordCount: returned pass false, score 0 (7 words (expected 0 to 5))' });
  });
});
