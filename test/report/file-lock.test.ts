/**
 * The lock file of one writer per labels file (and of the test pack): created exclusively with the
 * holder's pid, taken over when that process is gone, and never held by two takers at once — also
 * when both saw the same dead owner. The interleaving of two takers is laid out step by step, not
 * left to timing: the later taker acts on what it saw before the first one took the lock over.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { removeStaleLock, takeLock, withFileLock } from '../../src/report/file-lock.js';
import { removeTempDirs, tempDir } from '../support/cli.js';

afterAll(removeTempDirs);

/** The pid of a process that has ended. */
function deadPid(): number {
  const pid = spawnSync(process.execPath, ['-e', '']).pid;
  if (!pid) throw new Error('no child process');
  return pid;
}

/** A lock file as a process with `pid` leaves it. */
function lockOf(pid: number): string {
  const lock = join(tempDir(), 'labels.jsonl.lock');
  writeFileSync(lock, String(pid));
  return lock;
}

describe('takeLock', () => {
  it("takes over a lock whose process is gone, writing this process's pid", () => {
    const lock = lockOf(deadPid());
    expect(takeLock(lock)).toBe(true);
    expect(readFileSync(lock, 'utf8')).toBe(String(process.pid));
  });

  it('leaves a live process its lock', () => {
    const lock = lockOf(process.ppid);
    expect(takeLock(lock)).toBe(false);
    expect(readFileSync(lock, 'utf8')).toBe(String(process.ppid));
  });

  it('two takers that saw the same dead owner: the later one does not remove the lock the first took over, and does not get it', () => {
    const dead = deadPid();
    const lock = lockOf(dead);
    // Both read the lock and found its owner gone; the first then takes it over and holds it.
    expect(takeLock(lock)).toBe(true);
    // The second acts on what it read before: the owner it saw was `dead`.
    removeStaleLock(lock, dead);
    expect(readFileSync(lock, 'utf8')).toBe(String(process.pid));
    // So its next try finds the lock held: one holder, not two.
    expect(takeLock(lock)).toBe(false);
  });

  it('leaves the lock while another taker is taking it over, and takes it over once that one is done', () => {
    const dead = deadPid();
    const lock = lockOf(dead);
    const reservation = `${lock}.takeover-${dead}`;
    writeFileSync(reservation, '1');
    expect(takeLock(lock)).toBe(false);
    expect(readFileSync(lock, 'utf8')).toBe(String(dead));
    rmSync(reservation);
    expect(takeLock(lock)).toBe(true);
    expect(readdirSync(dirname(lock))).toEqual(['labels.jsonl.lock']);
  });
});

describe('withFileLock', () => {
  it("after taking over a dead owner's lock, leaves neither the lock nor a reservation behind", async () => {
    const lock = lockOf(deadPid());
    expect(await withFileLock(lock, async () => readFileSync(lock, 'utf8'))).toBe(String(process.pid));
    expect(readdirSync(dirname(lock))).toEqual([]);
  });
});
