import { isModelCall, type AgentRun, type Step } from '../../core/agent-run.js';
import { AgentEvalsError } from '../../core/errors.js';
import type { TrialResult, TurnResult } from '../../core/results-schema.js';
import type { Target, TargetSession, TrialInput } from '../../targets/types.js';

/**
 * What a replay serves of one recorded trial: the trace and turns a re-judge reads (the run
 * folder's raw ones when the results hold digests), beside the trial as the results file has it.
 */
export interface ReplayedTrial {
  recorded: TrialResult;
  trace: TrialResult['trace'];
  turns?: TurnResult[] | undefined;
}

/**
 * A target that calls nothing: each trial gets what the recorded trial of the same index did, turn
 * by turn (a multi-turn trial's recorded turns in order), with the recorded time. A trial whose
 * target failed fails again with the recorded error after the turns it got through, so it stays the
 * agent's failure and costs no judge call. `agent-evals rejudge` puts one in place of every target.
 */
export function replayTarget(name: string, trials: ReadonlyMap<number, ReplayedTrial>, instructions?: string): Target {
  const durations = new WeakMap<AgentRun, number>();
  const served = (run: AgentRun, durationMs: number) => (durations.set(run, durationMs), run);
  const script = (trial: TrialInput): Script => {
    const t = trials.get(trial.trial);
    // The runner asks only for recorded trials (the others stay not run); this is a guard, not a path.
    if (!t) throw new AgentEvalsError(`replay: trial ${trial.trial} of ${trial.suite}/${trial.id} was not recorded`);
    return scriptOf(t);
  };
  return {
    name,
    ...(instructions !== undefined ? { instructions } : {}),
    recordedDurationMs: (run) => durations.get(run),
    run(trial) {
      const s = script(trial);
      const first = s.turns[0];
      return first ? Promise.resolve(served(first.run, first.durationMs)) : Promise.reject(s.failure());
    },
    openSession(trial) {
      const s = script(trial);
      let next = 0;
      const session: TargetSession = {
        send() {
          const turn = s.turns[next++];
          return turn ? Promise.resolve(served(turn.run, turn.durationMs)) : Promise.reject(s.failure());
        },
        close: () => Promise.resolve(),
      };
      return Promise.resolve(session);
    },
  };
}

interface Script {
  turns: Array<{ run: AgentRun; durationMs: number }>;
  /** What a turn past the recorded ones gets: the recorded target error. */
  failure(): Error;
}

/** The turns a recorded trial replays, and the error that ends it. */
function scriptOf({ recorded, trace, turns }: ReplayedTrial): Script {
  const failed = recorded.error !== undefined && TARGET_ERROR.test(recorded.error);
  const failure = () => replayedError(recorded, failed && !turns?.length ? trace : undefined);
  if (turns) {
    const calls = callsByTurn(turns, trace);
    // The tools the trial was offered stay its own, so a re-judged baseline keeps its tools part.
    const offered = trace.toolDigests ? { toolDigests: trace.toolDigests } : {};
    return { turns: turns.map((t, k) => ({ run: { ...turnRun(t, trace.model, calls?.[k]), ...offered }, durationMs: t.durationMs })), failure };
  }
  if (failed) return { turns: [], failure };
  return { turns: [{ run: { reply: recorded.reply, ...trace }, durationMs: recorded.durationMs }], failure };
}

/** A trial error the target side made: the conversation names the target first (`target x: …`). */
const TARGET_ERROR = /^target [^:]*: /;

/**
 * The recorded target error, as the target's own message: the conversation adds back the target's
 * name and turn, and (from the partial run carried as spent) the note about unanswered calls.
 */
function replayedError(recorded: TrialResult, partial: TrialResult['trace'] | undefined): Error {
  const message = (recorded.error ?? '')
    .replace(TARGET_ERROR, '')
    .replace(/^turn \d+: /, '')
    .replace(/ \(\d+ model calls? (was|were) still waiting for an answer: counted, tokens and cost unknown\)$/, '');
  return new AgentEvalsError(message, partial ? { spent: { run: { reply: '', ...partial } } } : {});
}

/**
 * Each turn's model calls, from the trial's trace: the conversation merged its turns' steps in order,
 * each call a step with its own usage and model, and a turn's `usage.calls` counts its own. Undefined
 * when the trace does not hold them (the turns' calls and its steps disagree).
 */
function callsByTurn(turns: readonly TurnResult[], trace: TrialResult['trace']): Step[][] | undefined {
  const calls = (trace.steps ?? []).filter(isModelCall);
  const out: Step[][] = [];
  let at = 0;
  for (const t of turns) {
    const own = calls.slice(at, at + t.usage.calls);
    if (own.length < t.usage.calls || !addsUpTo(own, t.usage)) return undefined;
    out.push(own);
    at += t.usage.calls;
  }
  return out;
}

/** Whether calls add up to a turn's recorded tokens. */
function addsUpTo(calls: readonly Step[], usage: TurnResult['usage']): boolean {
  const sum = (field: 'inputTokens' | 'outputTokens') => calls.reduce((n, s) => n + (s.usage?.[field] ?? 0), 0);
  return sum('inputTokens') === usage.inputTokens && sum('outputTokens') === usage.outputTokens;
}

/**
 * One recorded turn as a run: its reply and tool calls, and its model calls as the trace recorded
 * them (each with its usage and model, so a cost or step gate reads the turn as the run did); from
 * an older trace that does not hold them, its token counts as one call of the trial's model.
 */
function turnRun(t: TurnResult, model: string | undefined, calls: readonly Step[] | undefined): AgentRun {
  const tools = t.toolCalls.length ? [{ toolCalls: t.toolCalls }] : [];
  if (calls) {
    const steps = calls.map(({ usage, model: m, usageUnknown }): Step => ({ ...(usage ? { usage } : {}), ...(m ? { model: m } : {}), ...(usageUnknown ? { usageUnknown } : {}) }));
    return { reply: t.reply, ...(steps.length + tools.length ? { steps: [...steps, ...tools] } : {}), ...(model ? { model } : {}) };
  }
  const tokens = { inputTokens: t.usage.inputTokens, outputTokens: t.usage.outputTokens, cachedInputTokens: t.usage.cachedInputTokens, reasoningTokens: t.usage.reasoningTokens };
  return {
    reply: t.reply,
    ...(tools.length ? { steps: tools } : {}),
    ...(t.usage.calls > 0 ? { usage: tokens } : {}),
    ...(model ? { model } : {}),
  };
}
