import { FileReadError, UserError } from '../core/errors.js';
import { TEXT_FILE_MAX_BYTES, readRegularFile } from '../core/regular-file.js';
import { refuseUtf16 } from '../core/text-encoding.js';

/**
 * A text file a command was given (a trace export, a results file), read whole: a missing or
 * unreadable file is bad input naming it (and the argument, when `field` is set); UTF-16 is refused.
 */
export async function readUserText(path: string, where: { file: string; field?: string }, missing = 'no such file'): Promise<string> {
  let bytes: Buffer;
  try {
    bytes = await readRegularFile(path, TEXT_FILE_MAX_BYTES);
  } catch (err) {
    if (!(err instanceof FileReadError)) throw err;
    throw new UserError(err.problem === 'missing' ? missing : `it ${err.message}`, where);
  }
  refuseUtf16(bytes, where.file);
  return bytes.toString('utf8');
}
