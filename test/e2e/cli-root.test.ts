/**
 * `npx agent-evals run` in the repository root: the example suites pass offline. What the run does
 * is the subject, not the process: the built CLI's `main` runs in-process.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO_ROOT, STACK_FRAME, tempDir, removeTempDirs } from '../support/cli.js';
import { runCliInProcess } from '../support/cli-in-process.js';
import { explain } from '../support/fixture-run.js';
import { readResults } from '../support/results-helpers.js';

afterAll(removeTempDirs);

describe('the repository examples', () => {
  it('run exits 0 and --json writes a document valid against schemas/results.schema.json', async () => {
    const out = join(tempDir(), 'out.json');
    const r = await runCliInProcess(['run', '--json', out], { cwd: REPO_ROOT });
    expect(r.code, explain(r)).toBe(0);
    expect(r.stderr).not.toMatch(STACK_FRAME);
    const res = readResults(out);
    expect(res.schemaVersion).toBe(1);
    expect(res.run.interrupted).toBe(false);
    expect(res.run.config).toBe('evals.config.ts');
    // The repository's commit is recorded (null outside a git checkout, e.g. an unpacked tarball).
    const head = (() => {
      try {
        return execFileSync('git', ['rev-parse', 'HEAD'], { cwd: REPO_ROOT, encoding: 'utf8' }).trim();
      } catch {
        return null;
      }
    })();
    expect(res.run.gitSha).toBe(head);
    expect(res.cases.length).toBeGreaterThan(0);
    expect(res.cases.filter((c) => c.verdict !== 'passed').map((c) => `${c.suite}/${c.id}`)).toEqual([]);
    // YAML, TypeScript and command-target examples all ran.
    const files = new Set(res.cases.map((c) => c.file));
    expect([...files].some((f) => f.endsWith('.eval.yaml'))).toBe(true);
    expect([...files].some((f) => f.endsWith('.eval.ts'))).toBe(true);
    expect(res.summary.cases.passed).toBe(res.cases.length);
    expect(res.summary.trials.run).toBe(res.summary.trials.planned);
    for (const c of res.cases) expect(c.trials.length, `${c.suite}/${c.id}`).toBe(c.planned);
  });
});
