import type { TrialResult } from '../../core/results-schema.js';
import type { PlannedCase } from '../../suite/plan.js';
import { TrialInjections } from '../../targets/tool-injections.js';
import { withTrialTools, type TrialTools } from '../../targets/tool-tape-scope.js';
import type { Target, TargetSession, TrialInput } from '../../targets/types.js';
import type { ToolTape } from './tool-tape.js';

/** What answers a run's tool calls in place of the tools: the case's `toolResults`, and the tape of `--replay-tools`. */
export interface TrialToolScopes {
  /** The case's target, each call of a trial inside that trial's tools (itself when the case has none). */
  targetFor(c: PlannedCase, inner: Target): Target;
  /** The trial as the results keep it: what the tape replayed, and what the case's `toolResults` served. */
  settle(c: PlannedCase, trial: TrialResult): TrialResult;
}

export function trialToolScopes(tape: ToolTape | undefined): TrialToolScopes {
  // One set of injections per running trial: its run and every turn of its conversation share it.
  const running = new Map<string, TrialInjections>();
  const slot = (c: PlannedCase, index: number) => `${c.key}\u0000${index}`;
  const injectionsOf = (c: PlannedCase, index: number, entries: NonNullable<PlannedCase['toolResults']>): TrialInjections => {
    const key = slot(c, index);
    let injections = running.get(key);
    if (!injections) running.set(key, (injections = new TrialInjections(entries)));
    return injections;
  };
  return {
    targetFor(c, inner) {
      const { toolResults } = c;
      if (!tape && !toolResults) return inner;
      return scopedTarget(inner, (trial) => ({
        ...(tape ? { tape: tape.tapeFor(c, trial.trial) } : {}),
        ...(toolResults ? { injections: injectionsOf(c, trial.trial, toolResults) } : {}),
      }));
    },
    settle(c, trial) {
      const taped = tape ? tape.settle(c, trial) : trial;
      if (!c.toolResults) return taped;
      const key = slot(c, trial.index);
      // A trial that failed before its target was called served nothing: every entry is unused.
      const injections = running.get(key) ?? new TrialInjections(c.toolResults);
      running.delete(key);
      return { ...taped, toolResults: injections.outcome() };
    },
  };
}

/** The target with each call (a trial's run, each turn of its conversation) inside its trial's tools. */
function scopedTarget(inner: Target, toolsFor: (trial: TrialInput) => TrialTools): Target {
  const target: Target = {
    name: inner.name,
    ...(inner.model !== undefined ? { model: inner.model } : {}),
    ...(inner.instructions !== undefined ? { instructions: inner.instructions } : {}),
    run: (trial, signal) => withTrialTools(toolsFor(trial), () => inner.run(trial, signal)),
    ...(inner.recordedDurationMs ? { recordedDurationMs: (run) => inner.recordedDurationMs!(run) } : {}),
  };
  if (!inner.openSession) return target;
  return {
    ...target,
    async openSession(trial, signal): Promise<TargetSession> {
      const tools = toolsFor(trial);
      const session = await withTrialTools(tools, () => inner.openSession!(trial, signal));
      return { send: (message, s, parts) => withTrialTools(tools, () => session.send(message, s, parts)), close: () => session.close() };
    },
  };
}
