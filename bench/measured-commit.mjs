// The commit a bench measured, as a short sha; `+uncommitted` when src/ has changes not in it.
import { spawnSync } from 'node:child_process';

export function measuredCommit(root) {
  const git = (...args) => spawnSync('git', args, { cwd: root, encoding: 'utf8' }).stdout?.trim() ?? '';
  const sha = git('rev-parse', '--short', 'HEAD') || 'unknown';
  return git('status', '--porcelain', '--', 'src') === '' ? sha : `${sha}+uncommitted`;
}
