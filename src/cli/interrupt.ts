import { exitProcess } from '../runner/isolation/exit-trap.js';
import type { HookBound } from '../report/hook-bound.js';

/**
 * Runs `work` with Ctrl-C (and SIGTERM) as its interrupt. The first stops scheduling: in-flight
 * trials finish briefly and what finished is written. A second one exits at once. With `reporters`,
 * reporter modules' hooks get `graceMs` from the first one to settle, so none holds the results back.
 */
export async function withInterrupt<T>(work: (signal: AbortSignal) => Promise<T>, reporters?: { bound: HookBound; graceMs: number }): Promise<T> {
  const interrupt = new AbortController();
  reporters?.bound.follow(interrupt.signal, reporters.graceMs);
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
