import * as fs from 'node:fs';
import * as fsp from 'node:fs/promises';
import { constants as bufferConstants } from 'node:buffer';
import { FileReadError } from './errors.js';

/**
 * The bound of a file read whole as text: the longest string Node can make. A larger file could not
 * become one string anyway, and saying so beats `ERR_STRING_TOO_LONG` (or reading gigabytes first).
 */
export const TEXT_FILE_MAX_BYTES = bufferConstants.MAX_STRING_LENGTH;

/**
 * Opening a FIFO for reading waits for a writer: O_NONBLOCK makes `open` return at once if a FIFO
 * was swapped in after the `stat` (the `fstat` then refuses it); O_NOCTTY keeps a terminal swapped in
 * from becoming ours. Neither changes how a regular file reads; Windows has neither.
 */
const READ_FLAGS = fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK ?? 0) | (fs.constants.O_NOCTTY ?? 0);

/** A file opened after both `stat` and `fstat` said it is a regular file within the bound; the caller closes `handle`. */
export interface OpenedRegularFile {
  handle: fsp.FileHandle;
  /** Its size when opened. */
  size: number;
}

/**
 * A file a user named (a content part, a dataset, a results file, an `import` input), read whole:
 * it must be a regular file after symlinks (never a device, FIFO, socket or directory) of at most
 * `maxBytes`, which `stat` checks before it is opened and `fstat` again on the descriptor read (a
 * file swapped in between is refused), and at most `maxBytes + 1` bytes are read whatever it claims.
 * Throws FileReadError.
 */
export function readRegularFileSync(path: string, maxBytes: number): Buffer {
  checkedPath(
    path,
    attempt(() => fs.statSync(path)),
    maxBytes,
  );
  const fd = attempt(() => fs.openSync(path, READ_FLAGS));
  try {
    const bounded = new BoundedBuffer(
      checked(
        attempt(() => fs.fstatSync(fd)),
        maxBytes,
      ),
      maxBytes,
    );
    for (;;) {
      const room = bounded.room();
      if (!bounded.took(attempt(() => fs.readSync(fd, room, 0, room.length, null)))) return bounded.bytes();
    }
  } finally {
    fs.closeSync(fd);
  }
}

/** readRegularFileSync without blocking the event loop. */
export async function readRegularFile(path: string, maxBytes: number): Promise<Buffer> {
  const opened = await openRegularFile(path, maxBytes);
  try {
    return await readOpenedFile(opened, maxBytes);
  } finally {
    await opened.handle.close();
  }
}

/** The file opened for a caller that reads it its own way (a stream up to `size`), checked as readRegularFileSync checks it. */
export async function openRegularFile(path: string, maxBytes = Number.MAX_SAFE_INTEGER): Promise<OpenedRegularFile> {
  checkedPath(path, await attemptAsync(() => fsp.stat(path)), maxBytes);
  const handle = await attemptAsync(() => fsp.open(path, READ_FLAGS));
  try {
    return { handle, size: checked(await attemptAsync(() => handle.stat()), maxBytes) };
  } catch (err) {
    await handle.close();
    throw err;
  }
}

/** The first `n` bytes of an opened file (fewer when it is shorter), read from its start. */
export async function readOpenedHead(opened: OpenedRegularFile, n: number): Promise<Buffer> {
  const head = Buffer.alloc(Math.min(n, opened.size));
  const { bytesRead } = await opened.handle.read(head, 0, head.length, 0);
  return head.subarray(0, bytesRead);
}

/** An opened file's bytes, at most `maxBytes` of them (FileReadError past that). */
export async function readOpenedFile(opened: OpenedRegularFile, maxBytes: number): Promise<Buffer> {
  const bounded = new BoundedBuffer(opened.size, maxBytes);
  for (;;) {
    const room = bounded.room();
    const { bytesRead } = await attemptAsync(() => opened.handle.read(room, 0, room.length, null));
    if (!bounded.took(bytesRead)) return bounded.bytes();
  }
}

/** `checked` for the path's own stat, whose error says when a symlink led to what is refused. */
function checkedPath(path: string, st: fs.Stats, maxBytes: number): void {
  try {
    checked(st, maxBytes);
  } catch (err) {
    if (err instanceof FileReadError && err.problem === 'not-regular' && fs.lstatSync(path, { throwIfNoEntry: false })?.isSymbolicLink()) {
      throw new FileReadError('not-regular', `is a symlink to ${kindOf(st)}, not a regular file`);
    }
    throw err;
  }
}

/** The size of a regular file within the bound; anything else is a FileReadError saying what it is. */
function checked(st: fs.Stats, maxBytes: number): number {
  if (!st.isFile()) throw new FileReadError('not-regular', `is ${kindOf(st)}, not a regular file`);
  if (st.size > maxBytes) throw new FileReadError('too-large', `is ${st.size} bytes, over the limit of ${maxBytes}`, st.size);
  return st.size;
}

function kindOf(st: fs.Stats): string {
  if (st.isDirectory()) return 'a directory';
  if (st.isFIFO()) return 'a FIFO (named pipe)';
  if (st.isCharacterDevice()) return 'a character device';
  if (st.isBlockDevice()) return 'a block device';
  if (st.isSocket()) return 'a socket';
  return 'not a file';
}

/**
 * The bytes read so far, in a buffer sized to what `fstat` said plus one byte (so the end is seen in
 * one read when the size is true), grown only for a file that is longer than it said (a growing
 * file; a /proc file says 0), never past `maxBytes + 1`.
 */
class BoundedBuffer {
  private buf: Buffer;
  private n = 0;

  constructor(
    size: number,
    private readonly maxBytes: number,
  ) {
    this.buf = Buffer.allocUnsafe(Math.min(size, maxBytes) + 1);
  }

  /** Where the next read goes. */
  room(): Buffer {
    if (this.n === this.buf.length) {
      const next = Buffer.allocUnsafe(Math.min(this.buf.length * 2, this.maxBytes + 1));
      this.buf.copy(next, 0, 0, this.n);
      this.buf = next;
    }
    return this.buf.subarray(this.n);
  }

  /** Counts a read; false at the end of the file. Past the bound it throws. */
  took(got: number): boolean {
    this.n += got;
    if (this.n > this.maxBytes) throw new FileReadError('too-large', `grew past the limit of ${this.maxBytes} bytes while it was read`, this.n);
    return got > 0;
  }

  bytes(): Buffer {
    return this.buf.subarray(0, this.n);
  }
}

function attempt<T>(op: () => T): T {
  try {
    return op();
  } catch (err) {
    throw asReadError(err);
  }
}

async function attemptAsync<T>(op: () => Promise<T>): Promise<T> {
  try {
    return await op();
  } catch (err) {
    throw asReadError(err);
  }
}

function asReadError(err: unknown): unknown {
  if (err instanceof FileReadError) return err;
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'ENOENT' || code === 'ENOTDIR') return new FileReadError('missing', 'does not exist', undefined, code);
  return new FileReadError('unreadable', `cannot be read (${code ?? (err as Error).message})`, undefined, code);
}
