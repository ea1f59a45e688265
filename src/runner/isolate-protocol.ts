import type { AgentRun } from '../core/agent-run.js';
import type { TrialInput } from '../targets/types.js';
import type { TapeProgress, TapeState } from '../targets/tool-tape.js';

/**
 * The messages between an isolated function target (`isolate: true`) and its worker thread. Every
 * field is structured-clone-safe data: the function itself never crosses, the worker imports the
 * module that defines it and finds it by its place there.
 */

/** Where the worker finds the target: the config file's `targets.<name>`, or the inline `target` of a TS eval file. */
export interface TargetPlace {
  kind: 'config' | 'eval';
  /** Absolute path of the module the worker imports. */
  file: string;
  /** The same file as errors name it. */
  display: string;
  /** The key under the config's `targets` (the target's name, for an eval file's inline one). */
  name: string;
  /** The function's source text as the run was given it: the worker checks it found the same one. */
  source: string;
}

/** What a worker is started with (its `workerData`). */
export interface WorkerInit {
  place: TargetPlace;
  dryRun: boolean;
  loadTimeoutMs: number;
}

/** A call of the target; `session` keys the ctx.session kept across the turns of one conversation. */
export type ToWorker = { type: 'call'; id: number; trial: TrialInput; turn: number; session: number; tape?: TapeState } | { type: 'end-session'; session: number };

export type FromWorker =
  | { type: 'ready' }
  | { type: 'load-error'; message: string }
  /** `tape`: how far the call got on the trial's tool tape (`--replay-tools`), when it was given one. */
  | { type: 'done'; id: number; run: AgentRun; tape?: TapeProgress }
  /** The call threw: its message and what it had recorded by then. */
  | { type: 'failed'; id: number; message: string; partial?: AgentRun; tape?: TapeProgress }
  /** What the call has recorded so far (steps, calls in flight), after each step: kept for a timeout. */
  | { type: 'progress'; id: number; partial: AgentRun }
  | { type: 'warn'; kind: 'counted-once' | 'added-both'; message: string }
  /** Sent just before the target's own process.exit / process.kill ends the worker. */
  | { type: 'exit-called'; call: string };
