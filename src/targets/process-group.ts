import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';

/**
 * Child processes that lead their own process group, so that everything they start (a shell's
 * background job, an agent's tool server) can be killed with them and is never orphaned. On
 * Windows there are no process groups: there the child alone is killed.
 */

/** Between SIGTERM to a group and SIGKILL to what is left of it. */
export const KILL_GRACE_MS = 750;
const POLL_MS = 25;

const GROUPS = process.platform !== 'win32';

/** Leaders (pid = pgid) of groups that may still hold a live process; killed when the CLI exits. */
const live = new Set<number>();
/** Groups already being killed (SIGTERM sent, SIGKILL pending). */
const dying = new Set<number>();
let exitHooked = false;

/** Starts `cmd` as the leader of a new process group, with piped stdio. */
export function spawnGroup(cmd: string, args: string[], opts: { cwd: string; env: NodeJS.ProcessEnv }): ChildProcessWithoutNullStreams {
  const child = spawn(cmd, args, { ...opts, detached: GROUPS, stdio: ['pipe', 'pipe', 'pipe'] });
  if (GROUPS && child.pid !== undefined) {
    live.add(child.pid);
    hookExit();
  }
  return child;
}

/**
 * SIGTERM to the child's whole group, then SIGKILL to whatever is left of it after `graceMs`.
 * Returns at once; the grace timer does not keep the process alive (the exit hook kills the rest).
 */
export function killGroup(child: ChildProcessWithoutNullStreams, graceMs = KILL_GRACE_MS): void {
  const pid = child.pid;
  if (pid === undefined) return;
  if (!GROUPS) {
    child.kill('SIGTERM');
    setTimeout(() => child.kill('SIGKILL'), graceMs).unref();
    return;
  }
  if (!live.has(pid) || dying.has(pid) || !signalGroup(pid, 'SIGTERM')) return;
  dying.add(pid);
  const deadline = Date.now() + graceMs;
  const poll = () => {
    if (!signalGroup(pid, 0)) return;
    if (Date.now() < deadline) return void setTimeout(poll, POLL_MS).unref();
    signalGroup(pid, 'SIGKILL');
    live.delete(pid);
    dying.delete(pid);
  };
  setTimeout(poll, POLL_MS).unref();
}

/** Sends `sig` to group `pgid`; false (and forgotten) once no process of the group is left. */
function signalGroup(pgid: number, sig: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-pgid, sig);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ESRCH') return true;
    live.delete(pgid);
    dying.delete(pgid);
    return false;
  }
}

/** However the CLI ends (end of run, second Ctrl-C, an exit after the grace), no group outlives it. */
function hookExit(): void {
  if (exitHooked) return;
  exitHooked = true;
  process.on('exit', () => {
    for (const pgid of live) signalGroup(pgid, 'SIGKILL');
  });
}
