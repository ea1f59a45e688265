/**
 * The built CLI's `main` (dist/cli/main.js) run inside the test worker, as `node bin/agent-evals.js
 * <args>` runs it in `cwd` with the same environment as `runCli` gives it: argv parsing, the command,
 * user errors mapped to exit codes, stdout and stderr captured. What it leaves out is Node's start-up
 * and the binary's own process handling (bin/agent-evals.js: heap limit, closed pipes, exit after the
 * grace), so a test about a command's behaviour costs no process; a test about the process (the
 * binary's exit code, signals, exit timing, piping) spawns it with `runCli`. Needs dist/, as `runCli` does.
 *
 * The working directory, the environment, process.stdout/stderr and process.exitCode are the
 * worker's own: runs take turns (one at a time per worker) and each puts back what it changed.
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { isatty } from 'node:tty';
import { Script, constants } from 'node:vm';
import { REPO_ROOT, envChanges, stripAnsi, type CliOptions, type CliResult } from './cli.js';
import { faultGuards } from './run-in-process.js';

interface BuiltCli {
  main(argv: string[]): Promise<void>;
  forgetLoadedModules(): void;
}

// Node's own import, not Vitest's: dist/ is then one copy shared with the `agent-evals` that a
// project's config or eval file imports (its classes, e.g. the judge errors, are the CLI's), as in
// the spawned binary.
const nativeImport = new Script('(url) => import(url)', { importModuleDynamically: constants.USE_MAIN_CONTEXT_DEFAULT_LOADER }).runInThisContext() as (url: string) => Promise<unknown>;
let built: Promise<BuiltCli> | undefined;

function builtCli(): Promise<BuiltCli> {
  const load = (path: string) => nativeImport(pathToFileURL(join(REPO_ROOT, 'dist', path)).href);
  built ??= quietly(() => Promise.all([load('cli/main.js'), load('suite/import-module.js')])).then(([cli, modules]) => ({
    main: (cli as Pick<BuiltCli, 'main'>).main,
    forgetLoadedModules: (modules as Pick<BuiltCli, 'forgetLoadedModules'>).forgetLoadedModules,
  }));
  return built;
}

/** Without Node 20's notice, on the first such import, that the loader option above is experimental. */
async function quietly<T>(load: () => Promise<T>): Promise<T> {
  const emit = process.emitWarning;
  process.emitWarning = (warning: string | Error, ...rest: unknown[]) => {
    if (!String(warning).includes('USE_MAIN_CONTEXT_DEFAULT_LOADER')) (emit as (...a: unknown[]) => void).call(process, warning, ...rest);
  };
  try {
    return await load();
  } finally {
    process.emitWarning = emit;
  }
}

let turn: Promise<unknown> = Promise.resolve();

/** The signal listeners a run added to the process. */
type Added = Record<'SIGINT' | 'SIGTERM', NodeJS.SignalsListener[]>;

/** A CLI started in-process (`startCliInProcess`): what `spawnCli` gives, without the child. */
export interface InProcessCli {
  /** Output so far (ANSI stripped). */
  stdout(): string;
  stderr(): string;
  /** Resolves once stdout matches; rejects when the run ends first (the test's timeout bounds a hang). */
  waitForStdout(pattern: RegExp): Promise<void>;
  /** The same for stderr. */
  waitForStderr(pattern: RegExp): Promise<void>;
  /**
   * `signal` as the OS delivers it to the CLI's process: to the listeners the CLI added (the
   * worker's own are not the CLI's). False when the CLI has none, as a process would then die.
   */
  kill(signal: 'SIGINT' | 'SIGTERM'): boolean;
  done: Promise<CliResult>;
}

/** `runCli` without the process: the same result (signal always null); `timeoutMs` is the test's own timeout here. */
export function runCliInProcess(args: string[], opts: CliOptions): Promise<CliResult> {
  return startCliInProcess(args, opts).done;
}

/** `spawnCli` without the process: starts the CLI's `main` (after any in-process run before it) and returns at once. */
export function startCliInProcess(args: string[], opts: CliOptions): InProcessCli {
  const out = { text: '' };
  const err = { text: '' };
  const watchers = new Set<() => void>();
  const notify = () => {
    for (const w of watchers) w();
  };
  let ended = false;
  let added: () => Added = () => ({ SIGINT: [], SIGTERM: [] });
  const done = turn.then(() => runNow(args, opts, { out, err, notify, listening: (fn) => (added = fn) }));
  turn = done.catch(() => {});
  // The caller may never await `done` when an earlier assertion throws; avoid an unhandled rejection.
  done.catch(() => {});
  void done
    .finally(() => {
      ended = true;
      notify();
    })
    .catch(() => {});
  const waitFor = (name: string, text: () => string, pattern: RegExp) =>
    new Promise<void>((resolve, reject) => {
      const check = () => {
        if (pattern.test(stripAnsi(text()))) resolve();
        else if (ended) reject(new Error(`the run ended before ${name} matched ${pattern}\nstdout:\n${out.text}\nstderr:\n${err.text}`));
        else return;
        watchers.delete(check);
      };
      watchers.add(check);
      check();
    });
  return {
    stdout: () => stripAnsi(out.text),
    stderr: () => stripAnsi(err.text),
    waitForStdout: (pattern) => waitFor('stdout', () => out.text, pattern),
    waitForStderr: (pattern) => waitFor('stderr', () => err.text, pattern),
    kill: (signal) => {
      const listeners = ended ? [] : added()[signal];
      for (const l of listeners) l(signal);
      return listeners.length > 0;
    },
    done,
  };
}

interface Sinks {
  out: { text: string };
  err: { text: string };
  notify(): void;
  /** Given, once the run starts, what tells the signal listeners it has added so far. */
  listening(added: () => Added): void;
}

async function runNow(args: string[], opts: CliOptions, sinks: Sinks): Promise<CliResult> {
  const { main, forgetLoadedModules } = await builtCli();
  const started = performance.now();
  const changes = envChanges(opts.env);
  const savedEnv = Object.keys(changes).map((k) => [k, process.env[k]] as const);
  const savedCwd = process.cwd();
  const savedExitCode = process.exitCode;
  // process.stdin is created on first use: touched only when it is a terminal (a worker may inherit one).
  const stdin = isatty(0) ? process.stdin : undefined;
  const savedTTY = { stdout: Object.getOwnPropertyDescriptor(process.stdout, 'isTTY'), stdin: stdin && Object.getOwnPropertyDescriptor(stdin, 'isTTY') };
  const signals = { SIGINT: process.listeners('SIGINT'), SIGTERM: process.listeners('SIGTERM') };
  const since = (name: 'SIGINT' | 'SIGTERM'): NodeJS.SignalsListener[] => process.listeners(name).filter((l) => !signals[name].includes(l));
  sinks.listening(() => ({ SIGINT: since('SIGINT'), SIGTERM: since('SIGTERM') }));
  const out = capture(process.stdout, sinks.out, sinks.notify);
  const err = capture(process.stderr, sinks.err, sinks.notify);
  let code: number;
  faultGuards.begin();
  try {
    for (const [k, v] of Object.entries(changes)) setEnv(k, v);
    // A spawned CLI reads and writes pipes: no live progress line, no keys read.
    Object.defineProperty(process.stdout, 'isTTY', { value: false, configurable: true, writable: true });
    if (stdin) Object.defineProperty(stdin, 'isTTY', { value: false, configurable: true, writable: true });
    process.chdir(opts.cwd);
    process.exitCode = undefined;
    // A fresh process would import the config and eval files anew (they may read the environment when loaded).
    forgetLoadedModules();
    await main(args);
    code = Number(process.exitCode ?? 0);
  } finally {
    faultGuards.end();
    for (const name of ['SIGINT', 'SIGTERM'] as const) for (const l of process.listeners(name)) if (!signals[name].includes(l)) process.off(name, l);
    process.exitCode = savedExitCode;
    process.chdir(savedCwd);
    restoreTTY(process.stdout, savedTTY.stdout);
    if (stdin) restoreTTY(stdin, savedTTY.stdin);
    for (const [k, v] of savedEnv) setEnv(k, v);
    out.restore();
    err.restore();
  }
  return { code, signal: null, stdout: stripAnsi(sinks.out.text), stderr: stripAnsi(sinks.err.text), durationMs: performance.now() - started };
}

function restoreTTY(stream: NodeJS.ReadStream | NodeJS.WriteStream, saved: PropertyDescriptor | undefined): void {
  if (saved) Object.defineProperty(stream, 'isTTY', saved);
  else delete (stream as { isTTY?: boolean }).isTTY;
}

function setEnv(key: string, value: string | undefined): void {
  if (value === undefined) delete process.env[key];
  else process.env[key] = value;
}

/** Adds what is written to `stream` to `sink` (calling `notify`) until `restore`. */
function capture(stream: NodeJS.WriteStream, sink: { text: string }, notify: () => void): { restore(): void } {
  const write = stream.write;
  stream.write = (chunk: string | Uint8Array, encoding?: BufferEncoding | ((err?: Error | null) => void), cb?: (err?: Error | null) => void) => {
    sink.text += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString(typeof encoding === 'string' ? encoding : 'utf8');
    const done = typeof encoding === 'function' ? encoding : cb;
    if (done) queueMicrotask(() => done());
    notify();
    return true;
  };
  return {
    restore: () => {
      stream.write = write;
    },
  };
}
