import { errorMessage } from '../../core/errors.js';
import { attributeFault } from '../../targets/target-faults.js';
import { TrappedProcessEnd } from './exit-trap.js';

/**
 * While a run goes on, an uncaught exception or unhandled rejection (a function target's own
 * timer throwing) fails the trials it belongs to instead of killing the process; one no running
 * trial can take is a run warning. Once the run is over, a late one is a line on stderr: it
 * cannot change the results or the exit code any more. Returns the switch to that second mode;
 * with `remove` (a run inside a test file, `evaluate()`) the switch takes the listeners off
 * instead, leaving the process to its test framework as it was.
 */
export function guardTargetFaults(warn: (message: string) => void, { remove = false } = {}): () => void {
  let over = false;
  const handle = (kind: 'uncaught exception' | 'unhandled rejection') => (err: unknown) => {
    // A trapped process.exit thrown through a target's timer: the trap has reported it already.
    if (err instanceof TrappedProcessEnd) return;
    if (over) {
      process.stderr.write(`agent-evals: ${kind} after the run ended (ignored): ${errorMessage(err)}\n`);
      return;
    }
    if (attributeFault(err, kind) === 0) warn(`${kind} outside any running trial (ignored): ${errorMessage(err)}`);
  };
  const onException = handle('uncaught exception');
  const onRejection = handle('unhandled rejection');
  if (!remove) {
    // One pair of listeners for the process, handing to the latest run: `run --watch` runs again and
    // again in one process, and a pair per run would pile up (and keep every finished run reachable).
    latest = { onException, onRejection };
    if (!process.listeners('uncaughtException').includes(toLatestException)) process.on('uncaughtException', toLatestException);
    if (!process.listeners('unhandledRejection').includes(toLatestRejection)) process.on('unhandledRejection', toLatestRejection);
    return () => {
      over = true;
    };
  }
  process.on('uncaughtException', onException);
  process.on('unhandledRejection', onRejection);
  return () => {
    over = true;
    process.off('uncaughtException', onException);
    process.off('unhandledRejection', onRejection);
  };
}

/** The handlers of the latest run that keeps its guard on the process (the CLI's runs). */
let latest: { onException: (err: unknown) => void; onRejection: (err: unknown) => void } | undefined;
const toLatestException = (err: unknown) => latest?.onException(err);
const toLatestRejection = (err: unknown) => latest?.onRejection(err);
