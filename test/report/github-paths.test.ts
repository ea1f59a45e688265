/**
 * Annotation paths: relative to GITHUB_WORKSPACE when it is set (a job's `working-directory:` below
 * the checkout still annotates the right file), else the case's own cwd-relative path.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { annotationPath, githubReporter } from '../../src/report/github.js';
import type { CaseResult } from '../../src/core/results-schema.js';
import type { CaseView } from '../../src/report/reporter.js';
import { emptyUsage } from '../../src/core/usage.js';

const root = join('/', 'checkout');
const cwd = join(root, 'packages', 'bot');

describe('annotationPath', () => {
  it('rebases a cwd-relative file onto the workspace, with forward slashes', () => {
    expect(annotationPath(join('evals', 'x.eval.yaml'), { cwd, workspace: root })).toBe('packages/bot/evals/x.eval.yaml');
    expect(annotationPath(join('..', 'shared', 'y.eval.yaml'), { cwd, workspace: root })).toBe('packages/shared/y.eval.yaml');
  });

  it('keeps the file as it is without a workspace, or for a file outside it', () => {
    expect(annotationPath('evals/x.eval.yaml', { cwd, workspace: undefined })).toBe('evals/x.eval.yaml');
    const outside = join('..', '..', '..', 'tmp', 'z.eval.yaml');
    expect(annotationPath(outside, { cwd, workspace: root })).toBe(outside);
  });
});

describe('githubReporter with paths', () => {
  it('annotates the rebased file', async () => {
    let out = '';
    const usage = { target: emptyUsage(), judge: emptyUsage() };
    const r = githubReporter({ out: { write: (t: string) => (out += t) }, summaryFile: undefined, paths: { cwd, workspace: root } });
    const failed = {
      suite: 's',
      id: 'c',
      file: 'evals/x.eval.yaml',
      line: 3,
      tags: [],
      verdict: 'failed',
      passed: 0,
      required: 1,
      planned: 1,
      notRun: 0,
      score: { mean: 0, stddev: 0 },
      judgeScore: null,
      usage,
      trials: [],
    } as unknown as CaseResult;
    await r.onCaseEnd!(failed, { index: 0 } as CaseView);
    expect(out).toMatch(/^::error file=packages\/bot\/evals\/x\.eval\.yaml,line=3,/);
  });
});
