import { closeSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { removeAtExit } from './remove-at-exit.js';

/** How often a held lock is looked at again while waiting for it. */
const RETRY_MS = 20;

/** Creates `lock` holding this pid; false when it already exists. */
function tryCreate(lock: string): boolean {
  let fd: number;
  try {
    fd = openSync(lock, 'wx');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  }
  try {
    writeSync(fd, String(process.pid));
  } finally {
    closeSync(fd);
  }
  return true;
}

/** The pid a lock file names, undefined when it names none (being written, or not ours). */
function ownerOf(lock: string): number | undefined {
  try {
    const pid = Number(readFileSync(lock, 'utf8').trim());
    return Number.isSafeInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it exists, under another user.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Creates `lock` holding this pid, taking over one whose process is gone; false while a live process
 * (or one still writing its pid) holds it.
 */
export function takeLock(lock: string): boolean {
  for (;;) {
    if (tryCreate(lock)) return true;
    const owner = ownerOf(lock);
    if (owner === undefined || owner === process.pid || isAlive(owner)) return false;
    if (!removeStaleLock(lock, owner)) return false;
  }
}

/**
 * Removes `lock` if it still names `deadOwner`, a process seen gone; false while another process is
 * taking the same lock over. What was seen may be stale by now: another taker may have removed the
 * dead owner's lock and created its own since. Removing by path would then delete a live lock, and
 * both takers would hold it. So the removal is reserved first, by creating (O_EXCL) a file named for
 * the dead owner that only one taker can hold, and the lock is read again under it: while that file
 * exists nobody else removes the lock, its dead owner cannot change it, and a creator cannot replace
 * it, so the owner read there is the one removed. A taker killed inside these few calls leaves the
 * reservation behind: that lock is then not taken over, and waiting for it ends in the error that
 * names the lock file.
 */
export function removeStaleLock(lock: string, deadOwner: number): boolean {
  const reservation = `${lock}.takeover-${deadOwner}`;
  if (!tryCreate(reservation)) return false;
  try {
    if (ownerOf(lock) === deadOwner) rmSync(lock, { force: true });
  } finally {
    rmSync(reservation, { force: true });
  }
  return true;
}

/**
 * Runs `fn` while holding `lock`, a file created exclusively (O_EXCL) that holds this process's pid:
 * one writer at a time among processes that share a file (two `review` sessions on one labels file),
 * so each can read the file, merge and write it back without losing the other's change. A lock whose
 * process is gone (killed mid-write) is taken over; one a live process holds is waited for, up to
 * `waitMs`, after which the error names the lock file.
 */
export async function withFileLock<T>(lock: string, fn: () => Promise<T>, waitMs = 10_000): Promise<T> {
  const deadline = Date.now() + waitMs;
  while (!takeLock(lock)) {
    if (Date.now() >= deadline) {
      const owner = ownerOf(lock);
      throw new Error(`${lock} is held by ${owner !== undefined ? `process ${owner}` : 'another process'}: remove it if no other process is writing`);
    }
    await sleep(RETRY_MS);
  }
  const release = removeAtExit(lock);
  try {
    return await fn();
  } finally {
    release();
    rmSync(lock, { force: true });
  }
}
