import { link, mkdir, rm, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { removeAtExit } from './remove-at-exit.js';

/**
 * Writes a new file whole or not at all: a temporary sibling, then a hard link to the name (which,
 * unlike a rename, fails when the name exists: a file made meanwhile is never replaced). False when
 * the name exists; any other failure is thrown.
 */
export async function writeNewFile(path: string, text: string): Promise<boolean> {
  await mkdir(dirname(path), { recursive: true });
  const tmp = `${path}.${process.pid}.tmp`;
  // A second Ctrl-C mid-write leaves no temporary file behind.
  const release = removeAtExit(tmp);
  try {
    await writeFile(tmp, text);
    await link(tmp, path);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  } finally {
    await rm(tmp, { force: true });
    release();
  }
}
