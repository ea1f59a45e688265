import { errorMessage } from '../core/errors.js';
import type { Reporter, ReporterEvents } from './reporter.js';

export type ReporterHook = keyof ReporterEvents;

export interface ReporterFailure {
  reporter: string;
  hook: ReporterHook;
  error: unknown;
}

/** The reporters as one, plus what went wrong in them. */
export interface Multiplexer extends ReporterEvents {
  /** Reporters that threw (one entry each): their output is incomplete. */
  readonly failures: readonly ReporterFailure[];
  /** Whether any reporter has an onTrialEnd: when none has, the runner need not make a trial's event at all. */
  readonly hearsTrials: boolean;
}

/** One line for stderr: which reporter, in which hook, and why. */
export function failureLine(f: ReporterFailure): string {
  return `reporter "${f.reporter}" failed in ${f.hook}: ${errorMessage(f.error)}; it gets no further events, so its output is incomplete`;
}

/**
 * Several reporters as one; each event reaches them in the order given. Every call is guarded: a
 * reporter that throws (or rejects) is reported once through `onFailure` and gets no further
 * events, its `onEnd` included, since what it would write from there is incomplete. The others
 * carry on, and so does the run.
 */
export function multiplexReporters(reporters: Reporter[], onFailure: (f: ReporterFailure) => void): Multiplexer {
  const failures: ReporterFailure[] = [];
  const live = reporters.map((r, i) => ({ r, name: r.name ?? `reporter ${i + 1}`, failed: false }));
  const fail = (entry: (typeof live)[number], hook: ReporterHook, error: unknown) => {
    if (entry.failed) return;
    entry.failed = true;
    const f = { reporter: entry.name, hook, error };
    failures.push(f);
    onFailure(f);
  };
  /** Sync hooks: a returned promise is not awaited (the event is fire-and-forget) but its rejection is caught. */
  const each = (hook: ReporterHook, call: (r: Reporter) => unknown) => {
    for (const entry of live) {
      if (entry.failed) continue;
      try {
        const out = call(entry.r);
        if (out instanceof Promise) out.catch((err: unknown) => fail(entry, hook, err));
      } catch (err) {
        fail(entry, hook, err);
      }
    }
  };
  /**
   * Awaited hooks: each reporter in turn, the next once the one before settled. Reporters that
   * return no promise are called one after another at once, and then nothing is returned: a case
   * every reporter takes synchronously costs no promise and no microtask per reporter.
   */
  const eachAwaited = (hook: ReporterHook, call: (r: Reporter) => unknown, from = 0): Promise<void> | undefined => {
    for (let i = from; i < live.length; i++) {
      const entry = live[i]!;
      if (entry.failed) continue;
      let out: unknown;
      try {
        out = call(entry.r);
      } catch (err) {
        fail(entry, hook, err);
        continue;
      }
      if (isThenable(out)) {
        return Promise.resolve(out).then(
          () => eachAwaited(hook, call, i + 1),
          (err: unknown) => {
            fail(entry, hook, err);
            return eachAwaited(hook, call, i + 1);
          },
        );
      }
    }
    return undefined;
  };
  return {
    failures,
    hearsTrials: reporters.some((r) => r.onTrialEnd !== undefined),
    onBegin: (info) => eachAwaited('onBegin', (r) => r.onBegin?.(info)),
    onTrialEnd: (c, trial) => each('onTrialEnd', (r) => r.onTrialEnd?.(c, trial)),
    onCaseEnd: (result, c) => eachAwaited('onCaseEnd', (r) => r.onCaseEnd?.(result, c)),
    onWarning: (message) => each('onWarning', (r) => r.onWarning?.(message)),
    onEnd: (info) => eachAwaited('onEnd', (r) => r.onEnd?.(info)),
  };
}

/** Whether a hook returned something to await (a promise, or any thenable). */
export function isThenable(v: unknown): v is PromiseLike<unknown> {
  return typeof v === 'object' && v !== null && typeof (v as { then?: unknown }).then === 'function';
}
