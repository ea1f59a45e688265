/**
 * Spawning the built CLI (`node bin/agent-evals.js`) from tests. `npm test` builds dist/ first;
 * run `npx tsc -p tsconfig.json` before running a test file on its own.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const CLI = join(REPO_ROOT, 'bin', 'agent-evals.js');

/** `test/fixtures/<name>`. */
export function fixtureDir(name: string): string {
  return join(REPO_ROOT, 'test', 'fixtures', name);
}

const created: string[] = [];

/** A fresh temporary directory (one per test, so concurrent tests never share output). */
export function tempDir(prefix = 'agent-evals-test-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  created.push(dir);
  return dir;
}

/** Removes the directories `tempDir` made in this module instance (call from `afterAll`). */
export function removeTempDirs(): void {
  for (const dir of created.splice(0)) rmSync(dir, { recursive: true, force: true });
}

export interface CliResult {
  /** Exit code; null when the process died of a signal. */
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  durationMs: number;
}

export interface CliOptions {
  cwd: string;
  /** Extra environment (NO_COLOR is always set; FORCE_COLOR, CI, GITHUB_ACTIONS, GITHUB_WORKSPACE and GITHUB_STEP_SUMMARY removed). */
  env?: Record<string, string | undefined>;
  /** Kill the child (SIGKILL) and fail after this long. */
  timeoutMs?: number;
}

/** Removes ANSI escape sequences (colors, progress-line redraws). */
export function stripAnsi(text: string): string {
  return text.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '');
}

/** What `runCli` changes in the environment it passes on: a value to set, or undefined to remove. */
export function envChanges(extra: Record<string, string | undefined> = {}): Record<string, string | undefined> {
  return {
    NO_COLOR: '1',
    FORCE_COLOR: undefined,
    CI: undefined,
    // A run inside GitHub Actions would add the github reporter and rebase its paths: a test opts in.
    GITHUB_ACTIONS: undefined,
    GITHUB_WORKSPACE: undefined,
    GITHUB_STEP_SUMMARY: undefined,
    // The runner's own children (command targets) must not inherit vitest's worker settings.
    NODE_OPTIONS: undefined,
    ...extra,
  };
}

function childEnv(extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const [k, v] of Object.entries(envChanges(extra))) {
    if (v === undefined) delete env[k];
    else env[k] = v;
  }
  return env;
}

export interface SpawnedCli {
  child: ChildProcessWithoutNullStreams;
  /** Output so far (ANSI stripped). */
  stdout(): string;
  stderr(): string;
  /** Resolves once stdout matches, or rejects after `timeoutMs` / when the process ends first. */
  waitForStdout(pattern: RegExp, timeoutMs: number): Promise<void>;
  /** The same for stderr. */
  waitForStderr(pattern: RegExp, timeoutMs: number): Promise<void>;
  done: Promise<CliResult>;
}

/** Starts the CLI and returns at once (for tests that interact with the running process). */
export function spawnCli(args: string[], opts: CliOptions): SpawnedCli {
  const started = performance.now();
  const child = spawn(process.execPath, [CLI, ...args], { cwd: opts.cwd, env: childEnv(opts.env), stdio: ['pipe', 'pipe', 'pipe'] });
  child.stdin.end();
  let out = '';
  let err = '';
  const watchers = new Set<() => void>();
  child.stdout.setEncoding('utf8').on('data', (d: string) => {
    out += d;
    for (const w of watchers) w();
  });
  child.stderr.setEncoding('utf8').on('data', (d: string) => {
    err += d;
    for (const w of watchers) w();
  });
  const limit = opts.timeoutMs ?? 60_000;
  const done = new Promise<CliResult>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`agent-evals ${args.join(' ')} did not finish within ${limit} ms\nstdout:\n${out}\nstderr:\n${err}`));
    }, limit);
    child.on('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      for (const w of watchers) w();
      resolve({ code, signal, stdout: stripAnsi(out), stderr: stripAnsi(err), durationMs: performance.now() - started });
    });
  });
  // The caller may never await `done` when an earlier assertion throws; avoid an unhandled rejection.
  done.catch(() => {});
  let closed = false;
  void done.finally(() => (closed = true)).catch(() => {});
  return {
    child,
    stdout: () => stripAnsi(out),
    stderr: () => stripAnsi(err),
    done,
    waitForStdout: (pattern, timeoutMs) => waitFor('stdout', () => out, pattern, timeoutMs),
    waitForStderr: (pattern, timeoutMs) => waitFor('stderr', () => err, pattern, timeoutMs),
  };

  function waitFor(name: string, text: () => string, pattern: RegExp, timeoutMs: number): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const check = () => {
        if (pattern.test(stripAnsi(text()))) finish(resolve);
        else if (closed || child.exitCode !== null || child.signalCode !== null) finish(() => reject(new Error(`process ended before ${name} matched ${pattern}\nstdout:\n${out}\nstderr:\n${err}`)));
      };
      const timer = setTimeout(() => finish(() => reject(new Error(`${name} did not match ${pattern} within ${timeoutMs} ms\nstdout:\n${out}\nstderr:\n${err}`))), timeoutMs);
      const finish = (fn: () => void) => {
        clearTimeout(timer);
        watchers.delete(check);
        fn();
      };
      watchers.add(check);
      check();
    });
  }
}

/** Runs the CLI to completion: `runCli`, or `runCliInProcess` (test/support/cli-in-process.ts) when the process is not the subject. */
export type CliRunner = (args: string[], opts: CliOptions) => Promise<CliResult>;

/** Runs the CLI to completion. */
export function runCli(args: string[], opts: CliOptions): Promise<CliResult> {
  return spawnCli(args, opts).done;
}

/** Lines a fixture target appended to its count file (one per invocation); [] when it was never called. */
export function readCountFile(path: string): string[] {
  if (!existsSync(path)) return [];
  return readFileSync(path, 'utf8').split('\n').filter(Boolean);
}

/** A stack-trace frame line, which no user-facing error output may contain. */
export const STACK_FRAME = /^\s+at .+/m;
