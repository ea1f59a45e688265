/**
 * What a child Node process loads: a small `--import` probe records every ES module it resolves
 * (a resolve hook on Node's loader thread appends each file: URL to a log), and at exit the
 * built-in modules Node loaded (`process.moduleLoadList`) and the CommonJS modules in
 * `require.cache` (packages loaded through `createRequire`, which no ESM hook sees). Structural
 * facts for tests of what a command imports; nothing here measures time.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { REPO_ROOT, tempDir } from './cli.js';

/** Hooks (run on Node's loader thread) that append each resolved file: URL to the file named by their data. */
const HOOKS = `import { appendFileSync } from 'node:fs';
let log;
export function initialize(data) { log = data; }
export async function resolve(specifier, context, next) {
  const r = await next(specifier, context);
  if (r.url.startsWith('file:')) appendFileSync(log, r.url + '\\n');
  return r;
}`;

/** The `--import` module: registers the hooks, and writes built-ins and CommonJS modules at exit. */
function probeSource(esmLog: string, exitLog: string): string {
  return `import { register, createRequire } from 'node:module';
import { writeFileSync } from 'node:fs';
register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(HOOKS)}`)}, { data: ${JSON.stringify(esmLog)} });
// Any base will do: the cache is the process's one (a data: URL is not a base createRequire takes).
const require = createRequire(process.cwd() + '/');
process.on('exit', () => {
  const builtins = process.moduleLoadList.filter((m) => m.startsWith('NativeModule ')).map((m) => m.slice('NativeModule '.length));
  // Files src/cli/code-cache.ts ran as scripts (its registry of loaded scripts).
  const scripts = [...(globalThis[Symbol.for('agent-evals.cached-scripts')]?.keys() ?? [])];
  writeFileSync(${JSON.stringify(exitLog)}, JSON.stringify({ builtins, cjs: Object.keys(require.cache), scripts }));
});`;
}

export interface ProbedRun {
  code: number | null;
  stdout: string;
  stderr: string;
  /**
   * file: URLs of the ES modules resolved (the CLI itself, dist/, packages, user modules imported
   * natively). A joined file of dist/ (scripts/bundle.mjs) also stands for each module it holds, named
   * as tsc would have built it (dist/runner/start-run.js) or as the package file it came from.
   */
  esm: string[];
  /** Built-in modules loaded, as Node names them (`http`, `internal/deps/undici/undici`, ...). */
  builtins: string[];
  /** Paths of the CommonJS modules loaded (jiti, commander, a package required lazily, ...). */
  cjs: string[];
  /** Paths of the files run as scripts with a code cache (src/cli/code-cache.ts: the start chunk, and `run`'s chunks). */
  scripts: string[];
}

/** Runs `node <script> ...args` in `cwd` with the probe, without the parent's NODE_OPTIONS. */
export function runWithModuleProbe(script: string, args: string[], cwd: string): ProbedRun {
  const logs = probeLogs();
  const r = spawnSync(process.execPath, ['--import', logs.probe, script, ...args], { cwd, encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '', NO_COLOR: '1' } });
  return probed(logs, r.status, r.stdout, r.stderr);
}

/** `runWithModuleProbe` without blocking this process: for a child whose requests a fake server here answers. `env` is added. */
export function runWithModuleProbeAsync(script: string, args: string[], cwd: string, env: Record<string, string> = {}): Promise<ProbedRun> {
  const logs = probeLogs();
  return new Promise((done) => {
    const child = spawn(process.execPath, ['--import', logs.probe, script, ...args], { cwd, env: { ...process.env, NODE_OPTIONS: '', NO_COLOR: '1', ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (b: Buffer) => (stdout += b.toString()));
    child.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
    child.on('close', (code) => done(probed(logs, code, stdout, stderr)));
  });
}

interface ProbeLogs {
  probe: string;
  esmLog: string;
  exitLog: string;
}

function probeLogs(): ProbeLogs {
  const dir = tempDir('agent-evals-probe-');
  const esmLog = join(dir, 'esm.txt');
  const exitLog = join(dir, 'exit.json');
  return { probe: `data:text/javascript,${encodeURIComponent(probeSource(esmLog, exitLog))}`, esmLog, exitLog };
}

function probed({ esmLog, exitLog }: ProbeLogs, code: number | null, stdout: string, stderr: string): ProbedRun {
  const read = (file: string): string => {
    try {
      return readFileSync(file, 'utf8');
    } catch {
      return ''; // nothing recorded
    }
  };
  const esm = withJoinedModules(read(esmLog).trim().split('\n').filter(Boolean));
  const atExit = JSON.parse(read(exitLog) || '{"builtins":[],"cjs":[],"scripts":[]}') as { builtins: string[]; cjs: string[]; scripts: string[] };
  return { code, stdout, stderr, esm, ...atExit };
}

const SRC = join(REPO_ROOT, 'src');
const DIST = join(REPO_ROOT, 'dist');

/**
 * Each loaded file of dist/ followed by the modules its source map says it holds (src/x.ts as
 * dist/x.js). The start chunk is a small ES module that runs chunks/start-<hash>.cjs with a code cache
 * (scripts/cached-script.mjs): no loader hook sees that file, so the chunk stands for it and what it holds.
 */
function withJoinedModules(urls: string[]): string[] {
  return urls.flatMap((url) => {
    const file = url.startsWith('file:') ? fileURLToPath(url) : '';
    if (!file.startsWith(DIST + '/')) return [url];
    const script = file.replace(/\.js$/, '.cjs');
    const [code, map] = existsSync(`${file}.map`) ? [file, `${file}.map`] : existsSync(`${script}.map`) ? [script, `${script}.map`] : [];
    if (code === undefined || map === undefined) return [url];
    const { sources = [] } = JSON.parse(readFileSync(map, 'utf8')) as { sources?: string[] };
    const held = sources.map((s) => {
      const path = resolve(dirname(code), s);
      return pathToFileURL(path.startsWith(SRC + '/') ? join(DIST, path.slice(SRC.length + 1)).replace(/\.ts$/, '.js') : path).href;
    });
    const own = code === file ? [url] : [url, pathToFileURL(code).href];
    return [...own, ...held.filter((h) => h !== url)];
  });
}
