/**
 * Annotation paths: relative to GITHUB_WORKSPACE when it is set (a job's `working-directory:` below
 * the checkout still annotates the right file), else the case's own cwd-relative path.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { annotationPath } from '../../src/report/github.js';

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
