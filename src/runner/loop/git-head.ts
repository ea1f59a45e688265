import { readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

/** A commit id: SHA-1, or SHA-256 in a repository that uses it. */
const COMMIT = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;

/** Variables that move where git looks for the repository or its refs: with any set, git itself is asked. */
const GIT_LOCATION_VARIABLES = ['GIT_DIR', 'GIT_COMMON_DIR', 'GIT_WORK_TREE', 'GIT_CEILING_DIRECTORIES', 'GIT_DISCOVERY_ACROSS_FILESYSTEM', 'GIT_NAMESPACE'];

/**
 * The commit checked out at `cwd` (what `git rev-parse HEAD` prints), or null outside a repository.
 * Read from the repository's own files when they say it plainly: HEAD naming a commit, or a branch
 * whose loose or packed ref holds one. Spawning git forks the whole process on the run's main
 * thread (several ms of its start-up). Outside any repository (no `.git` above `cwd`, and no folder
 * on the way that is itself a repository) it is null, as git would say. Anything else (git's location
 * variables, a bare repository, reftable refs, a branch with no commit yet) is asked of git, in the background.
 */
export function gitHead(cwd: string, env: NodeJS.ProcessEnv = process.env): Promise<string | null> {
  const fromFiles = GIT_LOCATION_VARIABLES.some((v) => env[v] !== undefined) ? undefined : headFromFiles(cwd);
  return fromFiles !== undefined ? Promise.resolve(fromFiles) : askGit(cwd);
}

async function askGit(cwd: string): Promise<string | null> {
  // Loaded only here: a run in a plain checkout never loads child_process for this.
  const { execFile } = await import('node:child_process');
  return new Promise((done) => {
    execFile('git', ['rev-parse', 'HEAD'], { cwd, encoding: 'utf8', timeout: 2_000 }, (err, stdout) => done(err ? null : stdout.trim() || null));
  });
}

/** HEAD's commit as the files say it, null outside a repository; undefined when they do not say it plainly (then git is asked). */
function headFromFiles(cwd: string): string | null | undefined {
  try {
    const gitDir = findGitDir(resolve(cwd));
    if (gitDir === NO_REPOSITORY) return null;
    if (gitDir === undefined) return undefined;
    const head = readFileSync(join(gitDir, 'HEAD'), 'utf8').trim();
    if (COMMIT.test(head)) return head;
    const ref = /^ref: (refs\/heads\/\S+)$/.exec(head)?.[1];
    if (ref === undefined) return undefined;
    // A linked worktree keeps its HEAD in its own folder, the branches in the repository's.
    const commonDir = readIfExists(join(gitDir, 'commondir'));
    const refsDir = commonDir === undefined ? gitDir : resolve(gitDir, commonDir.trim());
    const loose = readIfExists(join(refsDir, ref));
    if (loose !== undefined) return COMMIT.test(loose.trim()) ? loose.trim() : undefined;
    for (const line of (readIfExists(join(refsDir, 'packed-refs')) ?? '').split('\n')) {
      const [id, name] = line.trim().split(' ');
      if (name === ref && id !== undefined && COMMIT.test(id)) return id;
    }
    return undefined;
  } catch {
    return undefined;
  }
}

const NO_REPOSITORY = Symbol('no repository');

/**
 * The `.git` folder of the repository holding `dir` (a `.git` file names it: a linked worktree, a
 * submodule); NO_REPOSITORY when no folder up to the root holds one or is a repository itself (git's
 * own test for a bare one: HEAD, objects/ and refs/); undefined when git should be asked.
 */
function findGitDir(dir: string): string | typeof NO_REPOSITORY | undefined {
  for (let d = dir; ; d = dirname(d)) {
    const dotGit = join(d, '.git');
    const stat = statSync(dotGit, { throwIfNoEntry: false });
    if (stat?.isDirectory()) return dotGit;
    if (stat?.isFile()) {
      const named = /^gitdir: (.+)$/m.exec(readFileSync(dotGit, 'utf8'))?.[1];
      return named === undefined ? undefined : resolve(d, named.trim());
    }
    if (isBareRepository(d)) return undefined;
    if (dirname(d) === d) return NO_REPOSITORY;
  }
}

function isBareRepository(dir: string): boolean {
  return (
    statSync(join(dir, 'HEAD'), { throwIfNoEntry: false })?.isFile() === true &&
    statSync(join(dir, 'objects'), { throwIfNoEntry: false })?.isDirectory() === true &&
    statSync(join(dir, 'refs'), { throwIfNoEntry: false })?.isDirectory() === true
  );
}

function readIfExists(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}
