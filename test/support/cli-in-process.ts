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

/** `runCli` without the process: the same result (signal always null); `timeoutMs` is the test's own timeout here. */
export function runCliInProcess(args: string[], opts: CliOptions): Promise<CliResult> {
  const run = turn.then(() => runNow(args, opts));
  turn = run.catch(() => {});
  return run;
}

async function runNow(args: string[], opts: CliOptions): Promise<CliResult> {
  const { main, forgetLoadedModules } = await builtCli();
  const started = performance.now();
  const changes = envChanges(opts.env);
  const savedEnv = Object.keys(changes).map((k) => [k, process.env[k]] as const);
  const savedCwd = process.cwd();
  const savedExitCode = process.exitCode;
  const savedTTY = Object.getOwnPropertyDescriptor(process.stdout, 'isTTY');
  const signals = { SIGINT: process.listeners('SIGINT'), SIGTERM: process.listeners('SIGTERM') };
  const out = capture(process.stdout);
  const err = capture(process.stderr);
  let code: number;
  faultGuards.begin();
  try {
    for (const [k, v] of Object.entries(changes)) setEnv(k, v);
    // A spawned CLI writes to pipes: no live progress line.
    Object.defineProperty(process.stdout, 'isTTY', { value: false, configurable: true, writable: true });
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
    if (savedTTY) Object.defineProperty(process.stdout, 'isTTY', savedTTY);
    else delete (process.stdout as { isTTY?: boolean }).isTTY;
    for (const [k, v] of savedEnv) setEnv(k, v);
    out.restore();
    err.restore();
  }
  return { code, signal: null, stdout: stripAnsi(out.text()), stderr: stripAnsi(err.text()), durationMs: performance.now() - started };
}

function setEnv(key: string, value: string | undefined): void {
  if (value === undefined) delete process.env[key];
  else process.env[key] = value;
}

/** Keeps what is written to `stream` until `restore`. */
function capture(stream: NodeJS.WriteStream): { text(): string; restore(): void } {
  let text = '';
  const write = stream.write;
  stream.write = (chunk: string | Uint8Array, encoding?: BufferEncoding | ((err?: Error | null) => void), cb?: (err?: Error | null) => void) => {
    text += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString(typeof encoding === 'string' ? encoding : 'utf8');
    const done = typeof encoding === 'function' ? encoding : cb;
    if (done) queueMicrotask(() => done());
    return true;
  };
  return {
    text: () => text,
    restore: () => {
      stream.write = write;
    },
  };
}
