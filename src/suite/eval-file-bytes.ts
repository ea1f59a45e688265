import { FileReadError, UserError } from '../core/errors.js';
import { TEXT_FILE_MAX_BYTES, readRegularFile } from '../core/regular-file.js';
import { refuseUtf16 } from '../core/text-encoding.js';

/** An eval file's bytes; one that is not a regular file (a FIFO matching the glob, say) is a user error naming it, never read. */
export async function readEvalFileBytes(file: string, displayPath: string): Promise<Buffer> {
  let bytes: Buffer;
  try {
    bytes = await readRegularFile(file, TEXT_FILE_MAX_BYTES);
  } catch (err) {
    throw err instanceof FileReadError ? new UserError(`the eval file ${err.message}`, { file: displayPath }) : err;
  }
  refuseUtf16(bytes, displayPath);
  return bytes;
}
