import { Worker } from 'node:worker_threads';
import { basename, resolve } from 'node:path';
import type { AgentRun } from '../../core/agent-run.js';
import { DEFAULT_ISOLATE_HEAP_MB } from '../../core/bounds.js';
import { UserError, asError, errorMessage } from '../../core/errors.js';
import { historyBeforeFirstTurn, turnTrial } from '../../targets/session.js';
import { warnOncePerKind } from '../../targets/function-target.js';
import { withPartialRun } from '../../targets/partial-run.js';
import type { TargetConfig } from '../../targets/config-schema.js';
import type { FunctionTargetSchema } from '../../targets/target-schemas.js';
import type { PlannedCase } from '../../suite/plan.js';
import { caseTargetSpec } from '../../suite/target-variants.js';
import type { TargetSettings } from '../../targets/target-settings.js';
import type { Target, TargetSession, TrialInput } from '../../targets/types.js';
import type { MessageTurn } from '../../core/chat-turn.js';
import type { z } from 'zod';
import { FromWorkerSchema, refusedMessage, type FromWorker, type ToWorker, type WorkerInit } from './isolate-protocol.js';
import { currentTrialTools, type TrialTools } from '../../targets/tool-tape-scope.js';

type FunctionTargetConfig = z.infer<typeof FunctionTargetSchema>;

/** The config file as a worker imports it (absolute) and as errors name it. */
function configModule(settings: Pick<TargetSettings, 'configFile' | 'rootDir'>): { file: string; display: string } | undefined {
  return settings.configFile === null ? undefined : { file: resolve(settings.rootDir, basename(settings.configFile)), display: settings.configFile };
}

/** A case's target as the runner builds it, and where an isolated one's worker finds it. */
export function caseTarget(c: PlannedCase, configured: Record<string, TargetConfig>): { spec: TargetConfig; source: IsolatedSource } {
  if (typeof c.target === 'string') return { spec: caseTargetSpec(c, configured)!, source: { kind: 'config' } };
  if (!c.isolate) return { spec: c.target, source: { kind: 'config' } };
  const { module, display, maxHeapMb } = c.isolate;
  return { spec: { function: c.target, isolate: true, ...(maxHeapMb !== undefined ? { maxHeapMb } : {}) }, source: { kind: 'eval', module, display } };
}

/** Whether a configured target asks for a worker (`{ function, isolate: true }`). */
export function isIsolated(spec: unknown): spec is FunctionTargetConfig & { isolate: true } {
  return typeof spec === 'object' && spec !== null && 'function' in spec && (spec as { isolate?: unknown }).isolate === true;
}

/** A call the worker has not answered yet, with what it reported having recorded so far. */
interface PendingCall {
  resolve(run: AgentRun): void;
  reject(err: Error): void;
  partial?: AgentRun;
  /** The trial's tools (`--replay-tools`, the case's `toolResults`): its worker's copy is handed back with the answer. */
  tools?: TrialTools;
}

/** One worker thread running the target: one call at a time, dead for good once it ends. */
class Slot {
  readonly worker: Worker;
  /** Settles when the worker found the function (or could not). */
  readonly ready: Promise<void>;
  /** Why the worker ended (heap cap, process.exit, an uncaught throw), once it has. */
  private cause: string | undefined;
  dead = false;
  private readonly calls = new Map<number, PendingCall>();
  private nextId = 1;

  constructor(
    init: WorkerInit,
    private readonly heapMb: number,
    env: NodeJS.ProcessEnv,
    warn: (kind: 'counted-once' | 'added-both', message: string) => void,
  ) {
    let loaded!: () => void;
    let failed!: (err: Error) => void;
    this.ready = new Promise<void>((res, rej) => ((loaded = res), (failed = rej)));
    // Not awaited by everyone who holds it (a pooled spare): a failure is read where it is awaited.
    this.ready.catch(() => {});
    this.worker = new Worker(new URL('./isolated-worker.js', import.meta.url), { workerData: init, env, resourceLimits: { maxOldGenerationSizeMb: heapMb } });
    this.worker.on('message', (raw: unknown) => {
      if (this.dead) return;
      const parsed = FromWorkerSchema.safeParse(raw);
      if (!parsed.success) return this.refuse(refusedMessage(parsed.error), failed);
      const m = parsed.data;
      if (m.type === 'ready') loaded();
      else if (m.type === 'load-error') {
        failed(new Error(m.message));
        void this.worker.terminate();
      } else if (m.type === 'warn') warn(m.kind, m.message);
      else if (m.type === 'progress') {
        const call = this.calls.get(m.id);
        if (call) call.partial = m.partial;
      } else if (m.type === 'exit-called') this.cause ??= `called ${m.call} in its isolated worker: the worker ended, the run goes on`;
      else this.settle(m);
    });
    this.worker.on('error', (err: Error & { code?: string }) => {
      this.cause ??=
        err.code === 'ERR_WORKER_OUT_OF_MEMORY'
          ? `its isolated worker ran out of memory at its heap cap of ${this.heapMb} MB (maxHeapMb; ERR_WORKER_OUT_OF_MEMORY)`
          : `its isolated worker ended on an uncaught error: ${errorMessage(err)}`;
    });
    this.worker.on('exit', (code) => {
      this.dead = true;
      const why = new Error(this.cause ?? `its isolated worker ended (exit code ${code})`);
      failed(why);
      for (const call of this.calls.values()) call.reject(why);
      this.calls.clear();
    });
  }

  /**
   * A message no worker of ours sends (the target's own code posted on `parentPort`): the worker is
   * ended and what it was doing fails — its load, or the call in flight — and the run goes on.
   */
  private refuse(why: string, failLoad: (err: Error) => void): void {
    this.cause ??= `its isolated worker posted a message the runner does not accept (${why}); the target's own code must not post on parentPort: the worker was ended`;
    // Dead now, not at its exit event: no later message of this worker settles anything.
    this.dead = true;
    const err = new Error(this.cause);
    failLoad(err);
    for (const call of this.calls.values()) call.reject(err);
    this.calls.clear();
    void this.worker.terminate();
  }

  private settle(m: Extract<FromWorker, { type: 'done' | 'failed' }>): void {
    const call = this.calls.get(m.id);
    if (!call) return;
    this.calls.delete(m.id);
    if (m.tape) call.tools?.tape?.adopt(m.tape);
    if (m.injections) call.tools?.injections?.adopt(m.injections);
    if (m.type === 'done') call.resolve(m.run);
    else call.reject(m.partial ? withPartialRun(new Error(m.message), m.partial) : new Error(m.message));
  }

  post(message: ToWorker): void {
    if (!this.dead) this.worker.postMessage(message);
  }

  /** One call; an abort (timeout, interrupt) ends the worker: a call cannot be stopped inside it. */
  call(trial: TrialInput, turn: number, session: number, signal: AbortSignal): Promise<AgentRun> {
    if (this.dead) return Promise.reject(new Error(this.cause ?? 'its isolated worker has ended'));
    const id = this.nextId++;
    // ctx.tool runs in the worker, outside this process's scope: the trial's tools go with the call.
    const tools = currentTrialTools();
    const { tape, injections } = tools ?? {};
    return new Promise<AgentRun>((res, rej) => {
      const entry: PendingCall = {
        resolve: (run) => (done(), res(run)),
        reject: (err) => (done(), rej(err)),
        ...(tools ? { tools } : {}),
      };
      const onAbort = () => {
        this.cause ??= 'its isolated worker was ended when the trial was aborted';
        // What the worker reported before the abort is kept on the deadline's error, as in-process.
        const reason = entry.partial ? withPartialRun(signal.reason, entry.partial) : asError(signal.reason);
        this.calls.delete(id);
        // Dead now, not at its exit event: a trial released in between must not lease the worker being ended.
        this.dead = true;
        rej(reason);
        void this.worker.terminate();
      };
      const done = () => signal.removeEventListener('abort', onAbort);
      if (signal.aborted) return onAbort();
      signal.addEventListener('abort', onAbort, { once: true });
      this.calls.set(id, entry);
      this.post({ type: 'call', id, trial, turn, session, ...(tape ? { tape: tape.state() } : {}), ...(injections ? { injections: injections.state() } : {}) });
    });
  }
}

/** Healthy workers kept between trials; as many are made as calls run at once (the run's concurrency). */
class Pool {
  private readonly idle: Slot[] = [];

  constructor(private readonly spawn: () => Slot) {}

  async lease(): Promise<Slot> {
    let slot = this.idle.pop();
    while (slot?.dead) slot = this.idle.pop();
    slot ??= this.spawn();
    slot.worker.ref();
    await slot.ready;
    return slot;
  }

  /** A spare worker does not keep the process alive; a dead one is dropped (the next lease makes a new one). */
  release(slot: Slot): void {
    if (slot.dead) return;
    if (this.closed) {
      void slot.worker.terminate();
      return;
    }
    slot.worker.unref();
    this.idle.push(slot);
  }

  private closed = false;

  /** Ends the spare workers (a worker still in a call is ended when it is released). */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.idle.splice(0).map((slot) => slot.worker.terminate()));
  }
}

/** Where an isolated target's worker finds it: the config file, or (`module`) the eval file of an inline target. */
export type IsolatedSource = { kind: 'config' } | { kind: 'eval'; module: string; display: string };

/**
 * A function target run in worker threads (`isolate: true`): each call goes to a worker that
 * imported the module defining the target and found the same function there. A worker that reaches
 * its heap cap, calls process.exit or throws uncaught fails only the trial it was running, and is
 * replaced. The first worker starts now, so a target the worker cannot find is exit 2 at load.
 */
export async function createIsolatedTarget(
  name: string,
  spec: FunctionTargetConfig,
  source: IsolatedSource,
  settings: TargetSettings & { loadTimeoutMs: number },
): Promise<Target & { close(): Promise<void> }> {
  const where = source.kind === 'config' ? { file: settings.configFile ?? undefined, field: `targets.${name}` } : { file: source.display, field: 'isolate' };
  if (spec.otel) throw new UserError('isolate and otel cannot be combined: OpenTelemetry spans are collected in the runner’s own process', where);
  const module = source.kind === 'eval' ? { file: source.module, display: source.display } : configModule(settings);
  if (!module) throw new UserError('isolate: true needs the target in a config file the worker can import (this run has none)', where);
  const heapMb = spec.maxHeapMb ?? DEFAULT_ISOLATE_HEAP_MB;
  const init: WorkerInit = {
    place: { kind: source.kind, ...module, name, source: String(spec.function) },
    dryRun: settings.dryRun === true,
    proxy: settings.limiters.proxy,
    loadTimeoutMs: settings.loadTimeoutMs,
  };
  const warn = warnOncePerKind(settings.warn);
  const pool = new Pool(() => new Slot(init, heapMb, settings.env, warn));
  const first = await pool.lease().catch((err: unknown) => {
    throw new UserError(`isolate: ${errorMessage(err)}`, where);
  });
  pool.release(first);

  let sessions = 0;
  const callOn = async (trial: TrialInput, signal: AbortSignal) => {
    const slot = await pool.lease();
    const session = ++sessions;
    try {
      return await slot.call(trial, 1, session, signal);
    } finally {
      slot.post({ type: 'end-session', session });
      pool.release(slot);
    }
  };
  return {
    name,
    close: () => pool.close(),
    run: callOn,
    async openSession(trial): Promise<TargetSession> {
      // One worker holds the whole conversation: ctx.session lives there between turns.
      const slot = await pool.lease();
      const session = ++sessions;
      const history: MessageTurn[] = historyBeforeFirstTurn(trial);
      let turn = 0;
      return {
        async send(message, signal, parts) {
          turn += 1;
          const run = await slot.call(turnTrial(trial, history, message, parts), turn, session, signal);
          history.push({ role: 'assistant', content: run.reply });
          return run;
        },
        async close() {
          slot.post({ type: 'end-session', session });
          pool.release(slot);
        },
      };
    },
  };
}
