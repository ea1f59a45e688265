import { parentPort, workerData } from 'node:worker_threads';
import type { AgentRun } from '../../core/agent-run.js';
import { spentOf, errorMessage } from '../../core/errors.js';
import { safeJson } from '../../core/safe-json.js';
import { importUserModule } from '../../suite/import-module.js';
import { callOnce, type TargetFunction } from '../../targets/function-target.js';
import { endsThisProcess } from './exit-trap.js';
import { TrialTape } from '../../targets/tool-tape.js';
import { withTrialTools } from '../../targets/tool-tape-scope.js';
import { TrialInjections } from '../../targets/tool-injections.js';
import type { FromWorker, ToWorker, WorkerInit } from './isolate-protocol.js';

/**
 * The worker thread of an isolated function target: it imports the module that defines the
 * target, finds the function at its place, and answers calls with the same recorder as an
 * in-process target (ctx.tool, ctx.usage, ctx.fetch, ctx.openai() … all run here, beside the
 * function). What ends this thread (heap cap, process.exit, an uncaught throw) ends only it.
 */

const port = parentPort!;
const init = workerData as WorkerInit;
const { place } = init;

/** Posts a message; a value structured clone refuses (a function in a tool result) goes as its JSON. */
function post(message: FromWorker): void {
  try {
    port.postMessage(message);
  } catch {
    port.postMessage(JSON.parse(safeJson(message) ?? '{}'));
  }
}

// In a worker, process.exit ends the thread: the host is told first, so the trial names the call.
const realExit = process.exit.bind(process);
const realKill = process.kill.bind(process);
// Node itself calls process.exit() in a worker after an uncaught error, which the host hears as its
// 'error' event: that exit is not the target's call, and told as one it could win the race to the host.
let uncaught = false;
process.on('uncaughtExceptionMonitor', () => (uncaught = true));
process.exit = (code?: number | string | null) => {
  if (!uncaught) post({ type: 'exit-called', call: `process.exit(${code === undefined ? '' : JSON.stringify(code)})` });
  return realExit(code);
};
// Killing the runner's own process from here would end the whole run: it ends this worker instead.
process.kill = (pid: number, signal?: string | number) => {
  if (!endsThisProcess(Number(pid), signal)) return realKill(pid, signal);
  post({ type: 'exit-called', call: `process.kill(${pid}${signal === undefined ? '' : `, ${JSON.stringify(signal)}`})` });
  return realExit(1);
};

/** The function at its place in the module, as the worker's own import of it evaluates. */
function found(mod: unknown): { fn: unknown; where: string } {
  if (place.kind === 'config') {
    const spec = (mod as { targets?: Record<string, unknown> } | undefined)?.targets?.[place.name];
    return { fn: typeof spec === 'function' ? spec : (spec as { function?: unknown } | undefined)?.function, where: `targets.${place.name}` };
  }
  // An eval file exports one definition or an array of them: the one whose inline target is this function.
  const defs: unknown[] = Array.isArray(mod) ? mod : [mod];
  const targets = defs.map((d) => (d as { target?: unknown } | undefined)?.target).filter((t) => typeof t === 'function');
  return { fn: targets.find((t) => String(t) === place.source) ?? targets[0], where: 'the inline target' };
}

async function findTarget(): Promise<TargetFunction> {
  const { fn, where } = found(await importUserModule(place.file, place.display, init.loadTimeoutMs));
  if (typeof fn !== 'function') throw new Error(`the worker imported ${place.display} and found no function at ${where}`);
  const text = String(fn);
  if (text !== place.source) {
    // Where the two first differ, so a user (or a flaky test) sees what the worker found instead.
    let at = 0;
    while (at < text.length && text[at] === place.source[at]) at += 1;
    const near = (s: string) => JSON.stringify(s.slice(Math.max(0, at - 20), at + 40));
    throw new Error(
      `the function the worker finds at ${where} in ${place.display} is not the one the run was given (a target built or replaced at run time cannot be isolated): from character ${at + 1}, the worker's reads ${near(text)}, the run's ${near(place.source)}`,
    );
  }
  return fn as TargetFunction;
}

async function main(): Promise<void> {
  let fn: TargetFunction;
  try {
    fn = await findTarget();
  } catch (err) {
    post({ type: 'load-error', message: errorMessage(err) });
    return;
  }
  const sessions = new Map<number, Record<string, unknown>>();
  // The host ends this worker on a timeout or an interrupt: nothing here aborts ctx.signal.
  const signal = new AbortController().signal;
  const options = { dryRun: init.dryRun, env: process.env, proxy: init.proxy, warnOnce: (kind: 'counted-once' | 'added-both', message: string) => post({ type: 'warn', kind, message }) };
  port.on('message', (m: ToWorker) => {
    if (m.type === 'end-session') {
      sessions.delete(m.session);
      return;
    }
    const session = sessions.get(m.session) ?? {};
    sessions.set(m.session, session);
    const progress = (partial: AgentRun) => post({ type: 'progress', id: m.id, partial });
    // `--replay-tools` and the case's `toolResults`: the trial's tools as far as it got; how far this call took them goes back with the answer.
    const tape = m.tape ? TrialTape.from(m.tape) : undefined;
    const injections = m.injections ? TrialInjections.from(m.injections) : undefined;
    const call = () => callOnce(place.name, fn, m.trial, signal, m.turn, session, { ...options, progress });
    const taped = () => ({ ...(tape ? { tape: tape.progress() } : {}), ...(injections ? { injections: injections.progress() } : {}) });
    (tape || injections ? withTrialTools({ ...(tape ? { tape } : {}), ...(injections ? { injections } : {}) }, call) : call()).then(
      (run) => post({ type: 'done', id: m.id, run, ...taped() }),
      (err: unknown) => {
        const partial = spentOf(err).run;
        post({ type: 'failed', id: m.id, message: errorMessage(err), ...(partial ? { partial } : {}), ...taped() });
      },
    );
  });
  post({ type: 'ready' });
}

void main();
