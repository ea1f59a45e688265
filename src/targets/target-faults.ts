import { AsyncLocalStorage } from 'node:async_hooks';
import { errorMessage } from '../core/errors.js';

/** One call of a function target, while it runs. */
interface Call {
  target: string;
  fail(err: Error): void;
}

const current = new AsyncLocalStorage<Call>();
const running = new Set<Call>();

/**
 * Runs one call of a function target so that an exception its own timers or promises leave
 * uncaught can be pinned on it: the call's async context names it, and `attributeFault` rejects
 * the call with that error. The call is never left hanging on a fault it cannot see.
 */
export async function runAttributed<T>(target: string, work: () => T | Promise<T>, signal?: AbortSignal): Promise<T> {
  let fail!: (err: Error) => void;
  const faulted = new Promise<never>((_, reject) => (fail = reject));
  const call: Call = { target, fail };
  running.add(call);
  // A call its trial gave up on (a timeout, Ctrl-C) may never settle: it takes no later fault, which
  // would otherwise be pinned on it for the rest of the process (a `--watch` session) and go unsaid.
  const leave = () => void running.delete(call);
  signal?.addEventListener('abort', leave, { once: true });
  try {
    return await Promise.race([current.run(call, work), faulted]);
  } finally {
    running.delete(call);
    signal?.removeEventListener('abort', leave);
  }
}

/**
 * Fails the function-target calls an uncaught exception or unhandled rejection belongs to: the
 * running calls of the target whose async context raised it; when the context names none, every
 * running function-target call (the fault cannot be placed more precisely). Returns how many
 * calls were failed; 0 means nothing running could take the blame.
 */
export function attributeFault(err: unknown, kind: 'uncaught exception' | 'unhandled rejection'): number {
  return failRunningCalls((target, named) => `${kind} in target "${target}"${named ? '' : ' (or another function target running at the same time)'}: ${errorMessage(err)}`);
}

/**
 * Fails the running calls something happening now belongs to (the calls of the target whose
 * async context this is, else every running call), each with the message `describe` gives for
 * its target (`named`: the context named it). Returns how many calls were failed.
 */
export function failRunningCalls(describe: (target: string, named: boolean) => string): number {
  const owner = current.getStore();
  const blamed = owner ? [...running].filter((c) => c.target === owner.target) : [...running];
  for (const call of blamed) call.fail(new Error(describe(owner?.target ?? call.target, owner !== undefined)));
  return blamed.length;
}
