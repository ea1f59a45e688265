/**
 * What a child Node process loads: a small `--import` probe records every ES module it resolves
 * (a resolve hook on Node's loader thread appends each file: URL to a log), and at exit the
 * built-in modules Node loaded (`process.moduleLoadList`) and the CommonJS modules in
 * `require.cache` (packages loaded through `createRequire`, which no ESM hook sees). Structural
 * facts for tests of what a command imports; nothing here measures time.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from './cli.js';

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
  writeFileSync(${JSON.stringify(exitLog)}, JSON.stringify({ builtins, cjs: Object.keys(require.cache) }));
});`;
}

export interface ProbedRun {
  code: number | null;
  stdout: string;
  stderr: string;
  /** file: URLs of the ES modules resolved (the CLI itself, dist/, packages, user modules imported natively). */
  esm: string[];
  /** Built-in modules loaded, as Node names them (`http`, `internal/deps/undici/undici`, ...). */
  builtins: string[];
  /** Paths of the CommonJS modules loaded (jiti, commander, a package required lazily, ...). */
  cjs: string[];
}

/** Runs `node <script> ...args` in `cwd` with the probe, without the parent's NODE_OPTIONS. */
export function runWithModuleProbe(script: string, args: string[], cwd: string): ProbedRun {
  const logs = probeLogs();
  const r = spawnSync(process.execPath, ['--import', logs.probe, script, ...args], { cwd, encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '', NO_COLOR: '1' } });
  return probed(logs, r.status, r.stdout, r.stderr);
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
  const esm = read(esmLog).trim().split('\n').filter(Boolean);
  const atExit = JSON.parse(read(exitLog) || '{"builtins":[],"cjs":[]}') as { builtins: string[]; cjs: string[] };
  return { code, stdout, stderr, esm, ...atExit };
}
