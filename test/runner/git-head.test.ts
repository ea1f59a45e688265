import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { gitHead } from '../../src/runner/loop/git-head.js';
import { removeTempDirs, tempDir } from '../support/cli.js';

afterAll(removeTempDirs);

/** No git to ask: what comes back was read from the repository's files. */
const NO_GIT = { PATH: '' };

function git(cwd: string, ...args: string[]): string {
  const env = { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@example.test', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@example.test' };
  return execFileSync('git', args, { cwd, encoding: 'utf8', env }).trim();
}

let template: string | undefined;

/** A repository with one commit on main and a subfolder: made by git once per file, then copied. */
function repo(): string {
  if (!template) {
    template = tempDir('agent-evals-git-');
    git(template, 'init', '-q', '-b', 'main');
    writeFileSync(join(template, 'a.txt'), 'a');
    git(template, 'add', 'a.txt');
    git(template, 'commit', '-q', '-m', 'a');
    mkdirSync(join(template, 'sub', 'deeper'), { recursive: true });
  }
  const dir = tempDir('agent-evals-git-');
  cpSync(template, dir, { recursive: true });
  return dir;
}

/** Runs `fn` with PATH emptied, so `git` cannot be spawned. */
async function withoutGit<T>(fn: () => Promise<T>): Promise<T> {
  const saved = process.env.PATH;
  process.env.PATH = NO_GIT.PATH;
  try {
    return await fn();
  } finally {
    process.env.PATH = saved;
  }
}

describe('gitHead', () => {
  it('reads a branch commit from its loose ref, from a subfolder, without spawning git', async () => {
    const dir = repo();
    const head = git(dir, 'rev-parse', 'HEAD');
    expect(await withoutGit(() => gitHead(join(dir, 'sub', 'deeper'), NO_GIT))).toBe(head);
  });

  it('reads it from packed-refs, and a detached HEAD as it is', async () => {
    const dir = repo();
    const head = git(dir, 'rev-parse', 'HEAD');
    git(dir, 'pack-refs', '--all');
    expect(await withoutGit(() => gitHead(dir, NO_GIT))).toBe(head);
    writeFileSync(join(dir, 'b.txt'), 'b');
    git(dir, 'add', 'b.txt');
    git(dir, 'commit', '-q', '-m', 'b');
    git(dir, 'checkout', '-q', '--detach');
    const detached = git(dir, 'rev-parse', 'HEAD');
    expect(detached).not.toBe(head);
    expect(await withoutGit(() => gitHead(dir, NO_GIT))).toBe(detached);
  });

  it("reads a linked worktree's own HEAD (its branch in the main repository's refs)", async () => {
    const dir = repo();
    const wt = join(tempDir('agent-evals-git-wt-'), 'wt');
    git(dir, 'worktree', 'add', '-q', '-b', 'other', wt);
    writeFileSync(join(wt, 'c.txt'), 'c');
    git(wt, 'add', 'c.txt');
    git(wt, 'commit', '-q', '-m', 'c');
    const head = git(wt, 'rev-parse', 'HEAD');
    expect(head).not.toBe(git(dir, 'rev-parse', 'HEAD'));
    expect(await withoutGit(() => gitHead(wt, NO_GIT))).toBe(head);
  });

  it('asks git what the files do not say plainly: a branch with no commit yet is null, as outside a repository', async () => {
    const unborn = tempDir('agent-evals-git-');
    git(unborn, 'init', '-q', '-b', 'main');
    expect(await gitHead(unborn)).toBeNull();
  });

  it('outside any repository (no .git above, no bare repository on the way) is null without spawning git', async () => {
    const outside = tempDir('agent-evals-nogit-');
    // With a `git` on PATH that would print a commit: it must not be asked.
    const bin = tempDir('agent-evals-fake-git-');
    writeFileSync(join(bin, 'git'), '#!/bin/sh\necho 1111111111111111111111111111111111111111\n', { mode: 0o755 });
    const saved = process.env.PATH;
    process.env.PATH = bin;
    try {
      expect(await gitHead(outside, { PATH: bin })).toBeNull();
      // A bare repository on the way is git's to read: asked.
      for (const part of ['objects', 'refs']) mkdirSync(join(outside, part));
      writeFileSync(join(outside, 'HEAD'), 'ref: refs/heads/main\n');
      expect(await gitHead(join(outside, 'objects'), { PATH: bin })).toBe('1111111111111111111111111111111111111111');
    } finally {
      process.env.PATH = saved;
    }
  });

  it('asks git when GIT_DIR points elsewhere: the repository git would use, not the one above the folder', async () => {
    const here = repo();
    const there = repo();
    writeFileSync(join(there, 'd.txt'), 'd');
    git(there, 'add', 'd.txt');
    git(there, 'commit', '-q', '-m', 'd');
    const saved = process.env.GIT_DIR;
    process.env.GIT_DIR = join(there, '.git');
    try {
      expect(await gitHead(here)).toBe(git(there, 'rev-parse', 'HEAD'));
    } finally {
      if (saved === undefined) delete process.env.GIT_DIR;
      else process.env.GIT_DIR = saved;
    }
  });
});
