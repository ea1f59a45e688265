import { UserError } from '../core/errors.js';
import { bounded } from './parse-number.js';

/** What `review` and `view` share as commands that serve a page on 127.0.0.1 until Ctrl-C. */

/** `--port <n>`: a TCP port, 0 for any free one. */
export const portArg = bounded({ min: 0, max: 65_535, integer: true, why: 'a TCP port' });

/** A port that cannot be listened on is bad input naming `--port`; any other failure is passed on. */
export function listenFailure(port: number | undefined): (err: NodeJS.ErrnoException) => never {
  return (err) => {
    if (err.code === 'EADDRINUSE' || err.code === 'EACCES')
      throw new UserError(`cannot listen on 127.0.0.1:${port}: ${err.code === 'EADDRINUSE' ? 'the port is in use' : 'permission denied'}`, { field: '--port' });
    throw err;
  };
}

/** Resolves at the first Ctrl-C (or SIGTERM): the command then stops its server and ends with exit 0. */
export function untilStopped(): Promise<void> {
  return new Promise<void>((stop) => {
    const onSignal = () => {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      stop();
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
  });
}
