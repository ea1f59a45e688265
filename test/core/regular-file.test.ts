/**
 * The one reader of files a user names (core/regular-file.ts): a regular file is read whole up to its
 * bound; a device, FIFO, directory or a symlink to one is refused by what `stat` says before anything
 * is read (a FIFO is never opened, so nothing waits for a writer), and a file past the bound is
 * refused by its size.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FileReadError } from '../../src/core/errors.js';
import { openRegularFile, readRegularFile, readRegularFileSync } from '../../src/core/regular-file.js';
import { removeTempDirs, tempDir } from '../support/cli.js';

afterAll(removeTempDirs);

const unix = process.platform !== 'win32';

/** What each reader throws for `path`, or 'read' when it reads it. */
async function outcomes(path: string, maxBytes: number): Promise<Array<{ problem: string; message: string } | 'read'>> {
  const failed = (e: unknown) => {
    expect(e).toBeInstanceOf(FileReadError);
    return { problem: (e as FileReadError).problem, message: (e as FileReadError).message };
  };
  let sync: { problem: string; message: string } | 'read';
  try {
    readRegularFileSync(path, maxBytes);
    sync = 'read';
  } catch (e) {
    sync = failed(e);
  }
  const async = await readRegularFile(path, maxBytes).then(() => 'read' as const, failed);
  return [sync, async];
}

describe('reading a file a user named', () => {
  it('reads a regular file whole, and through a symlink to one', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'a.txt'), 'hello');
    if (unix) symlinkSync(join(dir, 'a.txt'), join(dir, 'link.txt'));
    expect(readRegularFileSync(join(dir, 'a.txt'), 5).toString()).toBe('hello');
    expect((await readRegularFile(join(dir, 'a.txt'), 5)).toString()).toBe('hello');
    if (unix) expect(readRegularFileSync(join(dir, 'link.txt'), 5).toString()).toBe('hello');
  });

  it('refuses a file past the bound by its size, and a missing file as missing', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'big.txt'), 'x'.repeat(11));
    const big = { problem: 'too-large', message: 'is 11 bytes, over the limit of 10' };
    expect(await outcomes(join(dir, 'big.txt'), 10)).toEqual([big, big]);
    const missing = { problem: 'missing', message: 'does not exist' };
    expect(await outcomes(join(dir, 'nope.txt'), 10)).toEqual([missing, missing]);
  });

  it('refuses a directory', async () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'd'));
    const refused = { problem: 'not-regular', message: 'is a directory, not a regular file' };
    expect(await outcomes(join(dir, 'd'), 10)).toEqual([refused, refused]);
  });

  it.skipIf(!unix)('refuses /dev/zero and a symlink to it, however large the bound', async () => {
    const dir = tempDir();
    symlinkSync('/dev/zero', join(dir, 'zero.png'));
    const device = { problem: 'not-regular', message: 'is a character device, not a regular file' };
    expect(await outcomes('/dev/zero', Number.MAX_SAFE_INTEGER)).toEqual([device, device]);
    const linked = { problem: 'not-regular', message: 'is a symlink to a character device, not a regular file' };
    expect(await outcomes(join(dir, 'zero.png'), Number.MAX_SAFE_INTEGER)).toEqual([linked, linked]);
  });

  it.skipIf(!unix)('refuses a FIFO without waiting for a writer (nothing ever writes to this one)', async () => {
    const dir = tempDir();
    execFileSync('mkfifo', [join(dir, 'pipe.jsonl')]);
    const fifo = { problem: 'not-regular', message: 'is a FIFO (named pipe), not a regular file' };
    expect(await outcomes(join(dir, 'pipe.jsonl'), 10)).toEqual([fifo, fifo]);
    await expect(openRegularFile(join(dir, 'pipe.jsonl'))).rejects.toMatchObject({ problem: 'not-regular' });
  });
});
