import { errorMessage } from '../core/errors.js';
import { attributeFault } from '../targets/target-faults.js';

/**
 * While a run goes on, an uncaught exception or unhandled rejection (a function target's own
 * timer throwing) fails the trials it belongs to instead of killing the process; one no running
 * trial can take is a run warning. Once the run is over, a late one is a line on stderr: it
 * cannot change the results or the exit code any more. Returns the switch to that second mode.
 */
export function guardTargetFaults(warn: (message: string) => void): () => void {
  let over = false;
  const handle = (kind: 'uncaught exception' | 'unhandled rejection') => (err: unknown) => {
    if (over) {
      process.stderr.write(`agent-evals: ${kind} after the run ended (ignored): ${errorMessage(err)}\n`);
      return;
    }
    if (attributeFault(err, kind) === 0) warn(`${kind} outside any running trial (ignored): ${errorMessage(err)}`);
  };
  process.on('uncaughtException', handle('uncaught exception'));
  process.on('unhandledRejection', handle('unhandled rejection'));
  return () => {
    over = true;
  };
}
