/**
 * The simulated user's usage (the third usage role) in the GitHub job summary: its own column
 * beside target and judge, with the user model's tokens and cost; absent when no case had one.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { githubReporter } from '../../src/report/github.js';
import { removeTempDirs, tempDir } from '../support/cli.js';
import type { FakeProvider } from '../support/fake-server.js';
import { runInProcess } from '../support/run-in-process.js';
import { simulatedUserRun, USER_USAGE } from '../support/simulated-user-run.js';

const fakes: FakeProvider[] = [];
afterEach(async () => {
  await Promise.all(fakes.splice(0).map((f) => f.close()));
  removeTempDirs();
});

describe('simulated-user usage in the GitHub summary', () => {
  it('has a simulated user column with the user model tokens and cost, apart from target and judge', async () => {
    const summaryFile = join(tempDir(), 'summary.md');
    const { results } = await simulatedUserRun(() => [githubReporter({ out: { write: () => true }, summaryFile })], fakes);
    expect(results.summary.usage.user).toMatchObject({ ...USER_USAGE, costUsd: expect.closeTo(USER_USAGE.costUsd, 9) });
    const md = readFileSync(summaryFile, 'utf8').split('\n');
    const head = md.findIndex((l) => l.startsWith('| cases |'));
    expect(md[head]).toBe('| cases | passed | failed | scored | skipped | trials run | score | target | judge | simulated user |');
    expect(md[head + 1]).toBe('| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |');
    // Target: 2 turns of 110 tokens; judge: the fake, nothing; user: 3,300 tokens at $0.00168.
    expect(md[head + 2]!.split(' | ').slice(-3)).toEqual(['220 tok $0.0001', '0 tok $0', '3,300 tok $0.0017 |']);
  });

  it('has no simulated user column when no case has one', async () => {
    const summaryFile = join(tempDir(), 'summary.md');
    await runInProcess({
      files: { 'evals/plain.eval.yaml': 'suite: s\ntarget: t\ncases:\n  - id: a\n    input: hi\n    assert: [{ type: contains, value: hi }]\n' },
      config: { targets: { t: (input: string) => input } },
      reporters: () => [githubReporter({ out: { write: () => true }, summaryFile })],
    });
    expect(readFileSync(summaryFile, 'utf8')).toContain('| cases | passed | failed | scored | skipped | trials run | score | target | judge |\n');
  });
});
