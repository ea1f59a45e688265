import { failRunningCalls } from '../../targets/target-faults.js';

/**
 * While a run goes on, an in-process target (a function target, a TS assertion or tool) cannot
 * end the process: `process.exit`, `process.abort` and `process.kill` of this process with a real
 * signal are trapped. The call throws (the code after it does not run, as with a real exit), the
 * function-target trial it belongs to fails naming the call, and one no trial can take fails the
 * run. What cannot be trapped (an `exit` saved before the run, a heap exhaustion) still cannot end
 * it green: a process ending mid-run ends non-zero, with a line saying so.
 */

/** Thrown by a trapped call: already reported, so the fault guard does not report it again. */
export class TrappedProcessEnd extends Error {}

interface ActiveRun {
  /** A trapped call no running trial could take: it fails the run. */
  stray(line: string): void;
}

interface Saved {
  exit: typeof process.exit;
  abort: typeof process.abort;
  kill: typeof process.kill;
}

const runs = new Set<ActiveRun>();
let saved: Saved | undefined;
/** The CLI itself is ending the process (a second Ctrl-C): not a target's doing. */
let leaving = false;

/** The real `process.exit`, for the CLI's own ending (the second Ctrl-C, the grace after the run). */
export function exitProcess(code: number): never {
  leaving = true;
  return (saved?.exit ?? process.exit).call(process, code);
}

/** Raises `signal` on this process past the trap (`--watch` turns a raw Ctrl-C key into SIGINT). */
export function signalProcess(signal: NodeJS.Signals): void {
  (saved?.kill ?? process.kill).call(process, process.pid, signal);
}

function trapped(call: string): never {
  const named: string[] = [];
  const blamed = failRunningCalls((target, exact) => {
    const line = `target "${target}"${exact ? '' : ' (or another function target running at the same time)'} called ${call} during its trial (trapped: an in-process target cannot end the run)`;
    named.push(line);
    return line;
  });
  if (blamed > 0) throw new TrappedProcessEnd(named[0]);
  if (runs.size === 0) {
    // A CLI run is over and its results are written: a late call cannot change them.
    process.stderr.write(`agent-evals: ${call} called after the run ended (ignored)\n`);
    throw new TrappedProcessEnd(`${call} called after the run ended (ignored)`);
  }
  const line = `${call} called during the run outside any function-target trial (trapped: the run fails)`;
  for (const run of runs) run.stray(line);
  throw new TrappedProcessEnd(line);
}

/** A call ends this process when it signals our own pid (or our group) with a real signal (not 0). */
export function endsThisProcess(pid: number, signal: string | number | undefined): boolean {
  const self = pid === process.pid || pid === 0 || pid === -process.pid;
  return self && signal !== 0 && signal !== '0';
}

function onExit(code: number): void {
  if (runs.size === 0 || leaving) return;
  // Only synchronous work is possible here: the results cannot be written, but the run is not green.
  process.stderr.write(`agent-evals: the process is ending (code ${code}) while the run is in progress: its results are not written; the run fails\n`);
  if (!code) process.exitCode = 1;
}

function install(): void {
  if (saved) return;
  const s: Saved = { exit: process.exit, abort: process.abort, kill: process.kill };
  saved = s;
  process.exit = (code?: number | string | null) => trapped(`process.exit(${code === undefined ? '' : JSON.stringify(code)})`);
  process.abort = () => trapped('process.abort()');
  process.kill = (pid: number, signal?: string | number) => {
    if (endsThisProcess(Number(pid), signal)) trapped(`process.kill(${pid}${signal === undefined ? '' : `, ${JSON.stringify(signal)}`})`);
    return s.kill.call(process, pid, signal);
  };
  process.on('exit', onExit);
}

function uninstall(): void {
  if (!saved) return;
  process.exit = saved.exit;
  process.abort = saved.abort;
  process.kill = saved.kill;
  saved = undefined;
  process.off('exit', onExit);
}

/**
 * Traps the process-ending calls for one run; returns its end. `stray` hears a trapped call no
 * running trial could take. At the end, a `process.exitCode` a target set is put back (the run's
 * own exit code is what the CLI sets). With `restore` (a run inside a test file, `evaluate()`),
 * the last run to end gives the process its own functions back; without (the CLI) they stay
 * trapped, so a target's leftover timer cannot end the process before it exits with the run's code.
 */
export function trapProcessEnd(stray: (line: string) => void, { restore = false } = {}): () => void {
  const exitCodeBefore = process.exitCode;
  const run: ActiveRun = { stray };
  install();
  runs.add(run);
  return () => {
    runs.delete(run);
    if (process.exitCode !== exitCodeBefore) {
      process.stderr.write(`agent-evals: process.exitCode was set to ${String(process.exitCode)} during the run (put back: the run's exit code stands)\n`);
      process.exitCode = exitCodeBefore;
    }
    if (restore && runs.size === 0) uninstall();
  };
}
