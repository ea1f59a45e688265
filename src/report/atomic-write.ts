import { createWriteStream, rmSync } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { once } from 'node:events';

/** Bytes handed to the file stream in pieces of about this size. */
const WRITE_BYTES = 256 * 1024;

/** Temp files being written right now: a second Ctrl-C exits mid-write, and must not leave them behind. */
const writing = new Set<string>();
let cleanupInstalled = false;

function track(tmp: string): void {
  writing.add(tmp);
  if (cleanupInstalled) return;
  cleanupInstalled = true;
  // 'exit' runs on process.exit (the second Ctrl-C) too; only synchronous work happens there.
  process.on('exit', () => {
    for (const path of writing) rmSync(path, { force: true });
  });
}

/**
 * Writes a file through a temporary sibling and a rename, so a reader never sees half a file
 * and a crash mid-write leaves the previous version in place.
 */
export async function writeAtomic(path: string, produce: (write: (chunk: string | Buffer) => Promise<void> | undefined) => Promise<void> | undefined): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const tmp = `${path}.${process.pid}.${Date.now()}.tmp`;
  track(tmp);
  const stream = createWriteStream(tmp, { encoding: 'utf8' });
  // Chunks (a case each, for a results file) reach the stream gathered: one write per WRITE_BYTES.
  let gathered: Buffer[] = [];
  let size = 0;
  const pass = async () => {
    const bytes = Buffer.concat(gathered);
    gathered = [];
    size = 0;
    if (!stream.write(bytes)) await once(stream, 'drain');
  };
  /** Text, or UTF-8 bytes. Returns a promise only when the gathered text went to the stream (and waits for it to drain). */
  const write = (chunk: string | Buffer) => {
    gathered.push(typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk);
    size += chunk.length;
    return size >= WRITE_BYTES ? pass() : undefined;
  };
  try {
    // Opened before anything counts as written: an exit that comes later finds the file to remove
    // (on a busy machine the open could otherwise finish after the exit's cleanup).
    await once(stream, 'open');
    await produce(write);
    if (size > 0) await pass();
    stream.end();
    await once(stream, 'finish');
    await rename(tmp, path);
  } catch (err) {
    stream.destroy();
    await rm(tmp, { force: true });
    throw err;
  } finally {
    writing.delete(tmp);
  }
}
