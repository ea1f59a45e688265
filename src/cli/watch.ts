import { relative, resolve, sep } from 'node:path';
import { watch, type FSWatcher } from 'chokidar';
import type { ResolvedConfig } from '../config/load-config.js';
import { ProviderConfigError, UserError, errorMessage } from '../core/errors.js';
import { affectedCases, isSourceFile, type ChangeContext } from '../suite/affected-cases.js';
import { forgetLoadedModules } from '../suite/import-module.js';
import type { PlannedCase } from '../suite/plan.js';
import { redactEnv } from './env-redact.js';
import { signalProcess } from '../runner/isolation/exit-trap.js';
import { prepareCases, type SelectionFlags } from './prepare.js';

/** Saves of one editor action (write, rename, chmod) arrive as a burst: one re-run after it settles. */
const DEBOUNCE_MS = 150;

export interface WatchOptions {
  paths: string[];
  flags: SelectionFlags & { json?: string | true; reporter?: readonly string[] };
  cwd: string;
  /**
   * One normal run of the planned cases (`partial`: what cut them from the whole suite; `all`: the
   * whole plan the watch runs part of); returns its exit code.
   */
  runPlanned(plan: { config: ResolvedConfig; cases: PlannedCase[]; partial: string[]; all: PlannedCase[]; drafts?: readonly PlannedCase[] }): Promise<number>;
}

/**
 * `run --watch`: a normal first run, then on every save the project is planned again and only the
 * affected cases run. Ends on `q` / Ctrl-C (keys read only from a TTY) or SIGINT, with the exit code
 * of the last run.
 */
export function watchRuns(o: WatchOptions): Promise<number> {
  const tty = process.stdin.isTTY === true;
  let lastCode = 0;
  let everything = true;
  let first = true;
  const changed = new Set<string>();
  let running = false;
  let quitting = false;
  let timer: NodeJS.Timeout | undefined;
  let watcher: FSWatcher | undefined;
  let end: (code: number) => void = () => {};
  const done = new Promise<number>((resolve) => (end = resolve));

  const status = () => process.stderr.write(`\nWatching for changes (${tty ? 'press a to re-run all, q to quit' : 'Ctrl-C to quit'})\n`);

  const cycle = async () => {
    const all = everything;
    const paths = [...changed];
    everything = false;
    changed.clear();
    try {
      // Every re-run (an `a` one too) reads the config and *.eval.ts from disk again.
      if (!first) forgetLoadedModules();
      first = false;
      const { config, cases, partial, drafts } = await prepareCases(o.paths, o.flags, o.cwd);
      if (!watcher) await startWatching(config);
      const chosen = all ? cases : affectedCases(cases, paths, changeContext(config, o.cwd));
      if (chosen.length === 0) {
        process.stderr.write(`\nNo case affected by ${paths.join(', ')}\n`);
        return;
      }
      if (paths.length > 0) process.stderr.write(`\nChanged: ${paths.join(', ')}; re-running ${chosen.length} of ${cases.length} case${cases.length === 1 ? '' : 's'}\n`);
      const subset = chosen.length < cases.length ? ['--watch re-running the affected cases'] : [];
      lastCode = await o.runPlanned({ config, cases: chosen.map((c, index) => ({ ...c, index })), partial: [...partial, ...subset], all: cases, drafts });
    } catch (err) {
      // A file saved half-way is bad input for now: say where, keep watching, never exit.
      const user = err instanceof UserError || err instanceof ProviderConfigError;
      process.stderr.write(`agent-evals: ${user ? '' : 'internal error: '}${redactEnv(errorMessage(err))}\n`);
      lastCode = user ? 2 : 1;
      if (!watcher) await startWatching(undefined);
    }
  };

  const kick = async () => {
    if (running || quitting) return;
    running = true;
    try {
      await cycle();
    } finally {
      running = false;
    }
    if (quitting) return finish();
    if (everything || changed.size > 0) return kick();
    status();
  };

  const schedule = () => {
    clearTimeout(timer);
    timer = setTimeout(() => void kick(), DEBOUNCE_MS);
  };

  /** Resolves once the initial scan is done: a save after "Watching for changes" is never missed. */
  function startWatching(config: ResolvedConfig | undefined): Promise<void> {
    const dir = config?.rootDir ?? o.cwd;
    // What a run writes must not start the next one: the output folder and files named by flags.
    const written = [...(typeof o.flags.json === 'string' ? [o.flags.json] : []), ...(o.flags.reporter ?? []).flatMap((r) => (r.includes('=') ? [r.slice(r.indexOf('=') + 1)] : []))];
    const ignored = [...(config ? [config.outputDir] : []), ...written].map((p) => relative(o.cwd, resolve(o.cwd, p)));
    // chokidar, not fs.watch: Node 20's recursive fs.watch loses later events after an editor's save-by-rename.
    const w = watch(dir, { ignoreInitial: true, atomic: true, ignored: (path: string) => isIgnored(relative(o.cwd, resolve(o.cwd, path)), ignored) });
    watcher = w;
    w.on('all', (_event, path) => {
      const rel = relative(o.cwd, resolve(o.cwd, path));
      if (!isSourceFile(rel)) return;
      changed.add(rel.split(sep).join('/'));
      schedule();
    });
    return new Promise((ready) => w.once('ready', () => ready()));
  }

  const quit = () => {
    quitting = true;
    clearTimeout(timer);
    // A run in progress gets the SIGINT too and ends early; the loop finishes after it.
    if (!running) finish();
  };

  const onKey = (key: Buffer) => {
    const k = key.toString();
    // Raw mode turns Ctrl-C into a key: raise the signal, so a run in progress is interrupted as without --watch.
    if (k === '\u0003') signalProcess('SIGINT');
    else if (k === 'q') quit();
    else if (k === 'a') {
      everything = true;
      schedule();
    }
  };

  function finish(): void {
    void watcher?.close();
    process.off('SIGINT', quit);
    process.off('SIGTERM', quit);
    if (tty) {
      process.stdin.off('data', onKey);
      process.stdin.setRawMode(false);
      process.stdin.pause();
    }
    end(lastCode);
  }

  process.on('SIGINT', quit);
  process.on('SIGTERM', quit);
  if (tty) {
    process.stdin.setRawMode(true);
    process.stdin.on('data', onKey);
    process.stdin.resume();
  }
  void kick();
  return done;
}

/** The config file and command targets, with paths as the watcher reports them (relative to cwd). */
function changeContext(config: ResolvedConfig, cwd: string): ChangeContext {
  const commands: Record<string, readonly string[]> = {};
  for (const [name, t] of Object.entries(config.targets)) {
    if (typeof t === 'object' && t !== null && 'command' in t && Array.isArray(t.command)) commands[name] = t.command.map(String);
  }
  return { configFile: config.file ? relative(cwd, config.file).split(sep).join('/') : null, commands };
}

/** Output paths, dependencies and dot-folders (.git, editor state) never trigger a run. */
function isIgnored(path: string, outputDirs: string[]): boolean {
  const parts = path.split(sep);
  if (parts.some((p) => p === 'node_modules' || (p.startsWith('.') && p !== '..'))) return true;
  return outputDirs.some((d) => d !== '' && (path === d || path.startsWith(d + sep)));
}
