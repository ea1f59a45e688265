import { UserError } from './errors.js';

/**
 * A text file the runner reads as UTF-8 but that was saved as UTF-16 (as some Windows editors and
 * PowerShell's `>` do): its byte-order mark, or a NUL byte in every other place of its start. Said
 * plainly, naming the file, rather than as a parser's complaint about a NUL byte on line 1.
 */
export function refuseUtf16(bytes: Uint8Array, file: string): void {
  const bom = (bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff);
  const head = bytes.subarray(0, 64);
  let nuls = 0;
  for (const b of head) if (b === 0) nuls += 1;
  if (bom || (head.length >= 4 && nuls * 3 >= head.length)) throw new UserError('the file is UTF-16: save it as UTF-8 (the encoding agent-evals reads)', { file });
}
