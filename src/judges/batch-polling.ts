import { setTimeout as sleepFor } from 'node:timers/promises';

/**
 * How a pending batch is polled: the first wait, doubling up to the longest; `sleep` is injectable (tests).
 * Both bounds below are counted in polling time (the waits between polls), so they hold whatever a poll costs.
 */
export interface BatchPolling {
  firstDelayMs: number;
  maxDelayMs: number;
  /** How long a batch may stay in a status this runner does not know before its judgments fail. */
  unknownStateMs: number;
  /** How long polls may keep failing (each after the SDK's own retries) before the batch is given up and its id kept. */
  pollFailureMs: number;
  /** Waits `ms`, ending early (resolving or rejecting) when `signal` aborts. */
  sleep(ms: number, signal: AbortSignal): Promise<void>;
}

export const DEFAULT_BATCH_POLLING: BatchPolling = {
  firstDelayMs: 2_000,
  maxDelayMs: 60_000,
  unknownStateMs: 10 * 60_000,
  pollFailureMs: 30 * 60_000,
  sleep: (ms, signal) => sleepFor(ms, undefined, { signal }),
};
