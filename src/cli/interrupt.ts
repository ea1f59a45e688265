import { exitProcess } from '../runner/exit-trap.js';

/**
 * Runs `work` with Ctrl-C (and SIGTERM) as its interrupt. The first stops scheduling: in-flight
 * trials finish briefly and what finished is written. A second one exits at once.
 */
export async function withInterrupt<T>(work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const interrupt = new AbortController();
  const onSigint = () => {
    if (interrupt.signal.aborted) exitProcess(130);
    process.stderr.write('\nInterrupted: finishing in-flight trials, then writing results (Ctrl-C again to quit now)\n');
    interrupt.abort();
  };
  process.on('SIGINT', onSigint);
  process.on('SIGTERM', onSigint);
  try {
    return await work(interrupt.signal);
  } finally {
    process.off('SIGINT', onSigint);
    process.off('SIGTERM', onSigint);
  }
}
