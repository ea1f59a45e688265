import { closeSync, mkdirSync, openSync, renameSync, rmSync, writevSync } from 'node:fs';
import { dirname } from 'node:path';
import { removeAtExit } from './remove-at-exit.js';

/** Pieces are handed to the file in batches of about this size: one writev each, never joined into one buffer first. */
const WRITE_BYTES = 256 * 1024;

/**
 * Writes a file through a temporary sibling and a rename, so a reader never sees half a file
 * and a crash mid-write leaves the previous version in place.
 *
 * The writes are synchronous: a report is written once the run is over, when nothing else waits on
 * the event loop, and each asynchronous write would cost a round trip through the thread pool
 * (tens of ms at a run's end on a busy machine, for a few MB of results). `produce` may still
 * await what it reads between writes.
 */
export async function writeAtomic(path: string, produce: (write: (chunk: string | Buffer) => void) => Promise<void> | void): Promise<void> {
  mkdirSync(dirname(path), { recursive: true });
  const tmp = `${path}.${process.pid}.${Date.now()}.tmp`;
  const release = removeAtExit(tmp);
  let fd: number | undefined;
  // Chunks (a case each, for a results file) are gathered as they are, and written WRITE_BYTES at a time.
  let gathered: Buffer[] = [];
  let size = 0;
  const pass = () => {
    const batch = gathered;
    const expected = size;
    gathered = [];
    size = 0;
    // A short count means the disk refused the rest (libuv writes on after a partial write until an error).
    const wrote = writevSync(fd!, batch);
    if (wrote !== expected) throw new Error(`${tmp}: wrote ${wrote} of ${expected} bytes`);
  };
  /** Text, or UTF-8 bytes (kept as given until their batch is written: a caller never reuses them). */
  const write = (chunk: string | Buffer) => {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
    gathered.push(bytes);
    size += bytes.length;
    if (size >= WRITE_BYTES) pass();
  };
  try {
    // Opened before anything counts as written: an exit that comes later finds the file to remove.
    fd = openSync(tmp, 'w');
    await produce(write);
    if (size > 0) pass();
    const done = fd;
    fd = undefined;
    closeSync(done);
    renameSync(tmp, path);
  } catch (err) {
    if (fd !== undefined) closeSync(fd);
    rmSync(tmp, { force: true });
    throw err;
  } finally {
    release();
  }
}
