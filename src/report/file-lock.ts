import { closeSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

/** How often a held lock is looked at again while waiting for it. */
const RETRY_MS = 20;

/** Locks this process holds right now: removed if it exits mid-write (a second Ctrl-C). */
const held = new Set<string>();
let cleanupInstalled = false;

function track(lock: string): void {
  held.add(lock);
  if (cleanupInstalled) return;
  cleanupInstalled = true;
  // 'exit' runs on process.exit too; only synchronous work happens there.
  process.on('exit', () => {
    for (const path of held) rmSync(path, { force: true });
  });
}

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
    rmSync(lock, { force: true });
  }
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
  track(lock);
  try {
    return await fn();
  } finally {
    held.delete(lock);
    rmSync(lock, { force: true });
  }
}
