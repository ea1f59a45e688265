/**
 * Ctrl-C (or SIGTERM) while `fn` runs: the first stops scheduling (the signal aborts) and lets
 * in-flight work finish briefly so what finished is written; a second exits at once.
 */
export async function withInterrupt<T>(fn: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const interrupt = new AbortController();
  const onSigint = () => {
    if (interrupt.signal.aborted) process.exit(130);
    process.stderr.write('\nInterrupted: finishing in-flight trials, then writing results (Ctrl-C again to quit now)\n');
    interrupt.abort();
  };
  process.on('SIGINT', onSigint);
  process.on('SIGTERM', onSigint);
  try {
    return await fn(interrupt.signal);
  } finally {
    process.off('SIGINT', onSigint);
    process.off('SIGTERM', onSigint);
  }
}
